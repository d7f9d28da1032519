// Run: npx tsx examples/full-memory-loop.ts [path/to/session.json]
// Replays a real agent session call by call through FoldSession, pages folded tool results back in
// as recall cards when the agent touches their files again, then seals the session into episodes
// and recalls them for the files of the last turn, as a later session would.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FoldSession, type FoldOutcome, type ProviderMessage } from '../src/index.ts';
import { createMemoryEpisodeStore, deriveEpisodesFromMessages, recallEpisodeCards, recordEpisodes } from '../src/episodes/index.ts';
import { Transcript } from '../src/messages/index.ts';
import { buildFoldIndex, buildFoldRecallContext, createRecallState, extractRecallSignals, type FoldIndex } from '../src/recall/index.ts';
import { estimateTokens } from '../src/text/estimate-tokens.ts';

const corpusFile = process.argv[2] ?? fileURLToPath(new URL('../../shared/corpus/dev/msa-ds-chat-test-django__django-12589.json', import.meta.url));
const history: ProviderMessage[] = JSON.parse(readFileSync(corpusFile, 'utf8')).messages;

/** The raw messages the view shows folded, as the session reports them. */
function foldedRangesOf(outcome: FoldOutcome): Array<[number, number]> {
  return outcome.foldedRange ? [[outcome.foldedRange[0], outcome.foldedRange[1]]] : [];
}

let clock = 1_700_000_000_000;
const session = new FoldSession({ pressureCeiling: 16_000, now: () => clock });
const transcript = new Transcript(estimateTokens);
let recallState = createRecallState();
let index: FoldIndex | null = null;
let indexedRanges = '';
let previousLength = 0;
let calls = 0;
let epochs = 0;
let cardCount = 0;
let cardTokens = 0;
let withheldCount = 0;
let withheldShown = 0;
let sampleCard = '';

console.log(`warpfold full memory loop · ${corpusFile.split('/').pop()} · ${history.length} messages\n`);
console.log('recall, call by call (calls with an epoch or a card):');

// The agent calls the model before every assistant message: replay exactly those prefixes.
for (let end = 1; end <= history.length; end++) {
  if (end < history.length && history[end].role !== 'assistant') continue;
  const view = history.slice(0, end);
  clock += 30_000;
  calls++;
  const outcome = session.prepare(view);
  transcript.sync(view);
  const ranges = foldedRangesOf(outcome);
  const rangesKey = JSON.stringify(ranges);
  if (rangesKey !== indexedRanges) {
    // the page table only changes at an epoch
    index = buildFoldIndex(transcript.messages, ranges);
    indexedRanges = rangesKey;
  }
  if (outcome.stats.epochReason) {
    epochs++;
    const folded = ranges.map(([start, stop]) => `${start}–${stop - 1}`).join(', ') || 'none';
    console.log(`  call ${String(calls).padStart(3)} · epoch (${outcome.stats.epochReason}) · folded messages ${folded} · view ${outcome.stats.viewTokens} tokens · ${index?.entries.length ?? 0} tool calls paged out`);
  }
  const signals = extractRecallSignals(transcript.messages, previousLength);
  previousLength = view.length;
  if (index === null) continue;
  const recall = buildFoldRecallContext(index, signals, recallState, {}, clock);
  recallState = recall.state;
  withheldCount += recall.withheld.length;
  for (const card of recall.cards) {
    cardCount++;
    cardTokens += card.tokens;
    if (!sampleCard) sampleCard = card.text;
    const why = card.trigger === 'identifier' ? 'same identifier' : card.trigger === 'path-target' ? 'earlier call on this path' : 'earlier output named this path';
    console.log(`  call ${String(calls).padStart(3)} · card · ${card.key} ← message ${card.messageIndex} (${why}; signal: ${card.signal.source} at message ${card.signal.messageIndex}) · ${card.tokens} tokens`);
  }
  // show residency at work a few times, then only count it
  if (recall.withheld.length && withheldShown++ < 3) console.log(`  call ${String(calls).padStart(3)} · quiet · ${recall.withheld.join(', ')} (recalled recently; residency keeps it from thrashing)`);
}

console.log(`\n${calls} calls · ${epochs} epochs · ${cardCount} recall cards (${cardTokens} tokens) · ${withheldCount} matches kept quiet by residency`);
if (sampleCard) {
  const lines = sampleCard.split('\n');
  console.log('\nfirst card, as the host would append it to the tool result:');
  for (const line of lines.slice(0, 18)) console.log(`  │ ${line.length > 110 ? `${line.slice(0, 109)}…` : line}`);
  if (lines.length > 18) console.log(`  │ … ${lines.length - 18} more lines`);
}

// Seal the session into episodes, one clock tick per message, and keep them.
const sessionStart = 1_700_000_000_000;
const episodes = deriveEpisodesFromMessages(history, { sessionId: 'django-12589', timestamps: history.map((_, i) => sessionStart + i * 15_000) });
const store = createMemoryEpisodeStore();
const recorded = await recordEpisodes(store, episodes);
console.log(`\nepisodes: ${recorded.recorded} recorded, ${recorded.superseded} conclusions superseded`);
for (const episode of episodes) {
  const changed = episode.files.filter((file) => file.how !== 'read').length;
  console.log(`  ${episode.id} · messages ${episode.span.startIndex}–${episode.span.endIndex - 1} · ${episode.outcome} · ${episode.files.length} files (${changed} changed) · ${episode.conclusions.length} conclusions`);
  if (!episode.conclusions.length) console.log('    no conclusions: the agent wrote no 🏁/⚠️ glyphs and its turn ended on a tool result, not an answer');
}

// A later session opens the files the last turn worked on.
const last = episodes[episodes.length - 1];
const paths = last ? last.files.filter((file) => file.how !== 'read').map((file) => file.path) : [];
const cards = await recallEpisodeCards(store, paths, { budgetTokens: 600, now: clock + 86_400_000 });
console.log(`\nepisode cards for ${paths.length} changed files of the last turn (${cards.reduce((sum, card) => sum + card.tokens, 0)} of 600 tokens):`);
for (const card of cards) for (const line of card.text.split('\n')) console.log(`  │ ${line.length > 110 ? `${line.slice(0, 109)}…` : line}`);
