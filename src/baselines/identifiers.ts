// What an agent takes from earlier in its session, exactly as the reference scorer defines it
// (../shared/bench/score.mjs): identifiers, the line around each, and 5-word shingles.
import { contentText, renderMessage, toolArgumentText } from '../tokens/index.ts';
import type { BaselineMessage } from './types.ts';

const IDENTIFIER_PATTERNS: readonly RegExp[] = [
  /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, // uuid
  /(?:[A-Za-z0-9_.@-]+\/)+[A-Za-z0-9_.@-]+\.[A-Za-z0-9]{1,8}/g, // path with extension
  /\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b/g, // hex hash
  /\b[a-z][a-z0-9]*(?:_[a-z0-9]+){2,}\b/g, // snake_case with 2+ underscores
  /\b[a-z]+(?:[A-Z][a-z0-9]+){2,}\b/g, // camelCase with 2+ humps
  /\b[\w.-]+:\d{2,5}\b/g, // host:port or file:line
];

/** Identifiers of at least 6 characters in `text`. */
export function identifiers(text: string): Set<string> {
  const found = new Set<string>();
  for (const pattern of IDENTIFIER_PATTERNS)
    for (const match of text.matchAll(pattern)) if (match[0].length >= 6) found.add(match[0]);
  return found;
}

/** The text pieces of a message the agent can reuse: its content and each tool call's arguments. */
function messagePieces(message: BaselineMessage): string[] {
  return [
    contentText(message.content ?? message.parts),
    ...(message.tool_calls ?? []).map((toolCall) => toolArgumentText(toolCall.function?.arguments)),
  ];
}

/** [identifier, the whitespace-collapsed line around it, +-60 characters] for each identifier in a message. */
export function identifierContexts(message: BaselineMessage): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  for (const piece of messagePieces(message)) {
    for (const line of piece.split('\n')) {
      const lineIdentifiers = identifiers(line);
      if (!lineIdentifiers.size) continue;
      const collapsed = line.replace(/\s+/g, ' ').trim();
      for (const identifier of lineIdentifiers) {
        const at = collapsed.indexOf(identifier);
        if (at < 0) continue;
        found.push([
          identifier,
          collapsed.slice(Math.max(0, at - 60), Math.min(collapsed.length, at + identifier.length + 60)),
        ]);
      }
    }
  }
  return found;
}

const SHINGLE_WORDS = 5;

function lineShingles(text: string, into: Set<string>): void {
  const words = text.split(/\s+/).filter(Boolean);
  for (let index = 0; index + SHINGLE_WORDS <= words.length; index++)
    into.add(words.slice(index, index + SHINGLE_WORDS).join(' '));
}

/** Every run of 5 whitespace-separated words within one line of the message. */
export function messageShingles(message: BaselineMessage): Set<string> {
  const found = new Set<string>();
  for (const piece of messagePieces(message)) for (const line of piece.split('\n')) lineShingles(line, found);
  return found;
}

/** Identifiers of the message's full rendering (role tag and tool-call names included), as the scorer tracks them. */
export function renderedIdentifiers(message: BaselineMessage): Set<string> {
  return identifiers(renderMessage(message));
}
