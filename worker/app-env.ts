import type { AuthenticatedCaller } from './bearer-auth.ts';
import type { WorkerConfig } from './worker-config.ts';
import type { WorkerBindings } from './worker-bindings.ts';

export interface AppEnv {
  Bindings: WorkerBindings;
  Variables: {
    requestId: string;
    config: WorkerConfig;
    /** Set by the guard on every authenticated route. */
    caller: AuthenticatedCaller;
  };
}
