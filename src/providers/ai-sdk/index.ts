export { foldPrepareStep, type FoldPrepareStepOptions, type PrepareStepInput } from './fold-prepare-step.ts';
export { DEFAULT_ANTHROPIC_CACHE_CONTROL, withAnthropicCacheBreakpoint } from './anthropic-cache-breakpoint.ts';
