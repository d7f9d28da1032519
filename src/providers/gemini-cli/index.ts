/** Gemini CLI pack (pure): rewrite a chat recording to hold a folded view, and read its latest measured tokens. */
export {
  geminiCliMessageRecords,
  latestGeminiCliUsage,
  rewriteGeminiCliChat,
  type GeminiCliMessageRecord,
} from './gemini-cli-chat.ts';
