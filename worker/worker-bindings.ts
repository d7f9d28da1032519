import type { TokenSecrets } from './bearer-auth.ts';

/**
 * The Worker's environment: the bindings and vars `wrangler types` generates from wrangler.toml
 * (`Env`), plus the token secrets, which live outside it (`wrangler secret put`, `.dev.vars`;
 * `wrangler types` lists them too when a .dev.vars exists, hence the Omit).
 */
export type WorkerBindings = Omit<Env, keyof TokenSecrets | 'WARPFOLD_BENCH_HOOKS'> &
  TokenSecrets & {
    /** `"1"` enables the hidden bench route that makes a session object forget its memory. */
    readonly WARPFOLD_BENCH_HOOKS?: string;
  };
