/**
 * Durable Object names are derived from the tenant, so a tenant's calls can only ever reach its
 * own objects: the same session id under two tenants names two different objects. JSON arrays keep
 * the parts unambiguous whatever characters they hold.
 */
export const sessionObjectName = (tenant: string, sessionId: string): string => JSON.stringify(['session', tenant, sessionId]);

export const tenantObjectName = (tenant: string): string => JSON.stringify(['tenant', tenant]);

export const rateLimiterName = (tokenId: string): string => JSON.stringify(['rate', tokenId]);
