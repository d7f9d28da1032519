/**
 * Durable Object names are derived from the tenant, so a tenant's calls can only ever reach its
 * own objects: the same session id under two tenants names two different objects. JSON arrays keep
 * the parts unambiguous whatever characters they hold.
 */
export const sessionObjectName = (tenant: string, sessionId: string): string =>
  JSON.stringify(['session', tenant, sessionId]);

export const tenantObjectName = (tenant: string): string => JSON.stringify(['tenant', tenant]);

/** One limiter per tenant, however many tokens it has. */
export const tenantRateLimiterName = (tenant: string): string => JSON.stringify(['rate', 'tenant', tenant]);

/** One limiter per client address for requests without a valid token. */
export const addressRateLimiterName = (address: string): string => JSON.stringify(['rate', 'address', address]);

/** One gateway session object per tenant and session key: another tenant's same key names another object. */
export const gatewaySessionObjectName = (tenant: string, sessionId: string): string =>
  JSON.stringify(['gateway', tenant, sessionId]);
