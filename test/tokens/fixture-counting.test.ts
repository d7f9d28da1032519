/**
 * The Claude Code fixture with a long thinking signature and a pasted screenshot is counted the
 * same by the engine, the command line, the baselines and the inspector: the signature is not
 * text, and the screenshot costs what Anthropic's formula says for 1280 × 800, not its base64.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../demo/src/fold/protocol.ts';
import { replayHistory } from '../../demo/src/fold/replay.ts';
import { messageTokens, resetSharedTokenMemo } from '../../src/baselines/index.ts';
import { FoldSession, type ProviderMessage } from '../../src/index.ts';
import { createMeasure } from '../../src/node/cli/report-replay.ts';
import { countPromptTokens, countTokens } from '../../src/tokens/index.ts';
import { readTranscript } from '../../src/transcripts/index.ts';
import { REPO_ROOT } from '../helpers/fixtures.ts';

const FIXTURE = join(REPO_ROOT, 'test/fixtures/claude-code/7d1c2e9a-5b3f-4c8e-9a21-3f6b0c4d8e17.jsonl');
const { messages } = readTranscript(readFileSync(FIXTURE, 'utf8'), { fileName: FIXTURE });

type Block = Record<string, unknown>;
const blocks = (message: ProviderMessage): Block[] =>
  Array.isArray(message.content) ? (message.content as Block[]) : [];

describe('the Claude Code fixture with a signature and a screenshot', () => {
  const engine = countPromptTokens(messages, countTokens);
  const total = engine.reduce((sum, tokens) => sum + tokens, 0);

  it('holds long signatures and a base64 image', () => {
    const signatures = messages.flatMap(blocks).filter((block) => block.type === 'thinking');
    expect(signatures.length).toBeGreaterThan(5);
    for (const block of signatures) expect(String(block.signature).length).toBeGreaterThan(1_500);
    const images = messages.flatMap(blocks).filter((block) => block.type === 'image');
    expect(images).toHaveLength(1);
  });

  it('counts the screenshot by its pixels and the thinking without its signature', () => {
    const unsigned = messages.map((message) => ({
      ...message,
      content: Array.isArray(message.content)
        ? blocks(message).map(({ signature: _signature, ...block }) => block)
        : message.content,
    }));
    expect(countPromptTokens(unsigned, countTokens)).toEqual(engine);
    const withImage = messages.findIndex((message) => blocks(message).some((block) => block.type === 'image'));
    const withoutImage = {
      ...messages[withImage],
      content: blocks(messages[withImage]).filter((block) => block.type !== 'image'),
    };
    // 1280 × 800 px / 750 px per token, and the "[image]" placeholder's few tokens
    const imageCost = engine[withImage] - countPromptTokens([withoutImage], countTokens)[0];
    expect(imageCost).toBeGreaterThanOrEqual(1_366);
    expect(imageCost).toBeLessThan(1_366 + 5);
  });

  it('gives every message the same count in the engine, the command line, the baselines and the inspector', async () => {
    expect(messages.map(createMeasure(countTokens).messageTokens)).toEqual(engine);
    resetSharedTokenMemo();
    expect(messages.map((message) => messageTokens(message as never))).toEqual(engine);
    const session = new FoldSession({ pressureCeiling: 1_000_000, countTokens, now: () => 0 });
    expect(session.prepare(messages).stats.rawTokens).toBe(total);
    const replay = await replayHistory([...messages, { role: 'assistant', content: 'done' }], {
      ...DEFAULT_SETTINGS,
      ceiling: 1_000_000,
    });
    expect(replay?.calls.at(-1)?.rawTokens).toBe(total);
  });
});
