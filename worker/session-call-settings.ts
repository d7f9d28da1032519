import type { SessionLimits } from './fold-session-object.ts';
import { withDefaultCeiling, type SessionOptions } from './session-options.ts';
import type { WorkerConfig } from './worker-config.ts';

/**
 * What a session call carries from the worker's configuration: the call's options with the
 * default ceiling made explicit (when it gives any), the options a new session starts with, and
 * the session's limits.
 */
export function sessionCallSettings(
  config: WorkerConfig,
  options: SessionOptions | undefined,
): { options?: SessionOptions; defaultOptions: SessionOptions; limits: SessionLimits } {
  return {
    ...(options !== undefined ? { options: withDefaultCeiling(options, config.defaultBudget) } : {}),
    defaultOptions: withDefaultCeiling(undefined, config.defaultBudget),
    limits: { maxMessages: config.maxSessionMessages, maxBytes: config.maxSessionBytes, warmMs: config.sessionWarmMs },
  };
}
