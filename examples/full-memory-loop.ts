// Run: npx tsx examples/full-memory-loop.ts [path/to/session.json]   (after `npm run build`)
// Replays a real agent session call by call through FoldSession with recall on: when the agent
// touches a folded file or identifier again, a recall card with the buried tool output is added to
// the view. Then it seals the session into episodes and recalls them for the files of the last
// turn, as a later session would. Without an argument it reads a session bundled with the repo.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deriveEpisodesFromMessages, recallEpisodeCards, recordEpisodes } from 'warpfold/episodes';
import { FoldSession, type ProviderMessage } from 'warpfold';
import { RECALL_CARD_OPENING } from 'warpfold/recall';
import { createMemoryStore } from 'warpfold/storage/memory';

const sessionFile =
  process.argv[2] ??
  fileURLToPath(new URL('../test/fixtures/sessions/msa-ds-chat-test-django__django-12589.json', import.meta.url));
const history: ProviderMessage[] = JSON.parse(readFileSync(sessionFile, 'utf8')).messages;

/** The text of a view message, whatever its dialect. */
function textOf(message: ProviderMessage): string {
  const value = message.content ?? message.parts;
  if (typeof value === 'string') return value;
  if (Array.isArray(value))
    return value
      .map((part) => (typeof part === 'object' && part && 'text' in part ? String(part.text) : ''))
      .join('\n');
  return '';
}

let clock = 1_700_000_000_000;
// 8,000 tokens: a tight ceiling, where folds drop the most; recall is off by default, so it is turned on here
const session = new FoldSession({ pressureCeiling: 8_000, now: () => clock, recall: true });
let calls = 0;
let epochs = 0;
let cardCount = 0;
let sampleCard = '';

console.log(`warpfold full memory loop · ${basename(sessionFile)} · ${history.length} messages\n`);
console.log('call by call (calls with an epoch or a recall card):');

// The agent calls the model before every assistant message: replay exactly those prefixes.
for (let end = 1; end <= history.length; end++) {
  if (end < history.length && history[end].role !== 'assistant') continue;
  clock += 30_000;
  calls++;
  const outcome = session.prepare(history.slice(0, end));
  const { stats } = outcome;
  if (stats.epochReason) {
    epochs++;
    const folded = outcome.foldedRange ? `${outcome.foldedRange[0]}–${outcome.foldedRange[1] - 1}` : 'none';
    console.log(
      `  call ${String(calls).padStart(3)} · epoch (${stats.epochReason}) · folded messages ${folded} · ${stats.bands} bands · view ${stats.viewTokens} of ${stats.rawTokens} raw tokens`,
    );
  }
  if (stats.recallCardsAdded > 0) {
    cardCount += stats.recallCardsAdded;
    const cards = outcome.messages.map(textOf).filter((text) => text.includes(RECALL_CARD_OPENING));
    const newest = cards[cards.length - 1] ?? '';
    if (!sampleCard) sampleCard = newest.slice(newest.indexOf(RECALL_CARD_OPENING));
    console.log(
      `  call ${String(calls).padStart(3)} · ${stats.recallCardsAdded} recall card(s) · ${stats.recallCardsResident} resident since the last epoch · ${newest.slice(newest.indexOf(RECALL_CARD_OPENING)).split('\n')[0]}`,
    );
  }
}

console.log(`\n${calls} calls · ${epochs} epochs · ${cardCount} recall cards`);
if (sampleCard) {
  const lines = sampleCard.split('\n');
  console.log('\nfirst card, as it appears in the view:');
  for (const line of lines.slice(0, 18)) console.log(`  │ ${line.length > 110 ? `${line.slice(0, 109)}…` : line}`);
  if (lines.length > 18) console.log(`  │ … ${lines.length - 18} more lines`);
}

// Seal the session into episodes, one clock tick per message, and keep them.
const sessionStart = 1_700_000_000_000;
const episodes = deriveEpisodesFromMessages(history, {
  sessionId: basename(sessionFile, '.json'),
  timestamps: history.map((_, i) => sessionStart + i * 15_000),
});
const store = createMemoryStore().episodes;
const recorded = await recordEpisodes(store, episodes);
console.log(`\nepisodes: ${recorded.recorded} recorded, ${recorded.superseded} conclusions superseded`);
for (const episode of episodes) {
  const changed = episode.files.filter((file) => file.how !== 'read').length;
  console.log(
    `  ${episode.id} · messages ${episode.span.startIndex}–${episode.span.endIndex - 1} · ${episode.outcome} · ${episode.files.length} files (${changed} changed) · ${episode.conclusions.length} conclusions`,
  );
  if (!episode.conclusions.length)
    console.log(
      '    no conclusions: the agent wrote no 🏁/⚠️ glyphs and its turn ended on a tool result, not an answer',
    );
}

// A later session opens the files the last turn worked on.
const last = episodes[episodes.length - 1];
const paths = last ? last.files.filter((file) => file.how !== 'read').map((file) => file.path) : [];
const cards = await recallEpisodeCards(store, paths, { budgetTokens: 600, now: clock + 86_400_000 });
console.log(
  `\nepisode cards for ${paths.length} changed files of the last turn (${cards.reduce((sum, card) => sum + card.tokens, 0)} of 600 tokens):`,
);
for (const card of cards)
  for (const line of card.text.split('\n')) console.log(`  │ ${line.length > 110 ? `${line.slice(0, 109)}…` : line}`);
