import type { ProviderMessage } from '../../messages/types.ts';
import type { FoldOutcome } from '../../session/fold-outcome.ts';
import type { FoldSession } from '../../session/fold-session.ts';
import type { AnthropicCacheControl } from '../anthropic/cache-breakpoints.ts';
import { DEFAULT_ANTHROPIC_CACHE_CONTROL, withAnthropicCacheBreakpoint } from './anthropic-cache-breakpoint.ts';

export interface FoldPrepareStepOptions {
  /** Put Anthropic's cache breakpoint on the sealed boundary (`true` for a 5-minute ephemeral one). */
  readonly anthropicCacheControl?: boolean | AnthropicCacheControl;
  /** Read the previous step's `usage.inputTokens` as the provider's count of the previous view (default true). */
  readonly measuredInputTokens?: boolean;
  /** Called with every outcome, for stats or a receipt. */
  readonly onPrepared?: (outcome: FoldOutcome, stepNumber: number) => void;
}

/** What `prepareStep` receives, structurally: the AI SDK's types stay out of warpfold's. */
export interface PrepareStepInput<MESSAGE extends object> {
  readonly messages: MESSAGE[];
  readonly steps?: ReadonlyArray<{ readonly usage?: { readonly inputTokens?: number | undefined } }>;
  readonly stepNumber?: number;
}

/**
 * A `prepareStep` for the AI SDK's `generateText` / `streamText`: every step's model call gets
 * the session's view of the messages so far (the SDK hands the full history again at the next
 * step). Unfolded messages are the SDK's own objects; folds are `ModelMessage`s of text parts.
 */
export function foldPrepareStep(session: FoldSession, options: FoldPrepareStepOptions = {}) {
  const cacheControl =
    options.anthropicCacheControl === true
      ? DEFAULT_ANTHROPIC_CACHE_CONTROL
      : options.anthropicCacheControl || undefined;
  return <MESSAGE extends object>(step: PrepareStepInput<MESSAGE>): { messages: MESSAGE[] } => {
    const previous = step.steps?.[step.steps.length - 1];
    const measured = options.measuredInputTokens === false ? undefined : previous?.usage?.inputTokens;
    const outcome = session.prepare(
      step.messages as unknown as ProviderMessage[],
      measured === undefined ? {} : { measuredInputTokens: measured },
    );
    options.onPrepared?.(outcome, step.stepNumber ?? 0);
    const messages = outcome.messages as unknown as MESSAGE[];
    return {
      messages: cacheControl ? withAnthropicCacheBreakpoint(messages, outcome.sealedBoundary, cacheControl) : messages,
    };
  };
}
