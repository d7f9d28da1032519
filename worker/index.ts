/**
 * The warpfold edge endpoint (wrangler.toml `main`): the Hono app, and the Durable Object classes
 * the bindings name.
 */
import { createApp } from './app.ts';

export { FoldSessionObject } from './fold-session-object.ts';
export { GatewaySessionObject } from './gateway-session-object.ts';
export { TenantObject } from './tenant-object.ts';
export { RateLimiterObject } from './rate-limiter-object.ts';

export default createApp();
