export { foldResponsesInput, type FoldedResponsesInput, type FoldResponsesInputOptions } from './fold-responses-input.ts';
export { readResponsesUsage, type ResponsesUsageLike, type ResponsesUsageReading } from './read-responses-usage.ts';
