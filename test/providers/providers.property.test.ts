import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FoldSession } from '../../src/index.ts';
import { prepareAnthropicCachedRequest } from '../../src/providers/anthropic/index.ts';
import { buildClaudeCodeSession, claudeCodeRows } from '../../src/providers/claude-cli/index.ts';
import { geminiCliMessageRecords } from '../../src/providers/gemini-cli/index.ts';
import { readClaudeCodeJsonl, readGeminiCliChat } from '../../src/transcripts/index.ts';
import { arbitraryHistory } from '../helpers/arbitraries.ts';
import { ProviderInputError } from '../../src/index.ts';

const SHAPE = { maxTurns: 5, maxStepsPerTurn: 6, hugeWeight: 1 };
const ttl = fc.constantFrom<'5m' | '1h' | undefined>('5m', '1h', undefined);
const RANK = { '5m': 0, '1h': 1 } as const;

/** Every cache_control in prefix order (tools, system, message blocks), as TTL strings. */
function ttlsInOrder(request: Record<string, unknown>): Array<'5m' | '1h'> {
  const out: Array<'5m' | '1h'> = [];
  const take = (item: unknown) => {
    const control = (item as { cache_control?: { ttl?: string } } | null)?.cache_control;
    if (control !== undefined) out.push(control.ttl === '1h' ? '1h' : '5m');
  };
  (request.tools as unknown[] | undefined)?.forEach(take);
  if (Array.isArray(request.system)) request.system.forEach(take);
  for (const message of request.messages as Array<{ content: unknown }>)
    if (Array.isArray(message.content)) message.content.forEach(take);
  return out;
}

describe('prepareAnthropicCachedRequest invariants over generated folded views', () => {
  it('at most four breakpoints, TTLs never lengthen along the prefix, beta header iff 1h, input unchanged, only role and content', () => {
    fc.assert(
      fc.property(
        arbitraryHistory(SHAPE, 'anthropic'),
        fc.integer({ min: 1_000, max: 6_000 }),
        ttl,
        ttl,
        ttl,
        fc.array(fc.nat(), { maxLength: 5 }),
        fc.constantFrom('5m', '1h'),
        (generated, ceiling, all, prefix, tail, marks, callerTtl) => {
          const view = new FoldSession({ pressureCeiling: ceiling }).prepare(generated.history);
          // The caller marks some text blocks of its own.
          const messages = view.messages.map((message, index) => {
            if (!marks.some((mark) => mark % view.messages.length === index) || !Array.isArray(message.content))
              return message;
            const blocks = message.content as Array<Record<string, unknown>>;
            const at = blocks.findIndex((block) => block.type === 'text' && block.text !== '');
            return at < 0
              ? message
              : {
                  ...message,
                  content: blocks.map((block, blockIndex) =>
                    blockIndex === at
                      ? {
                          ...block,
                          cache_control: callerTtl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' },
                        }
                      : block,
                  ),
                };
          });
          const before = JSON.stringify(messages);
          const tools = [{ name: 'bash', input_schema: { type: 'object' } }];
          let result;
          try {
            const system = messages[0]?.role === 'system' ? undefined : 'stable\n## Your Identity\nvolatile';
            result = prepareAnthropicCachedRequest({
              messages,
              sealedBoundary: view.sealedBoundary,
              system,
              tools,
              ttl: all,
              prefixTtl: prefix,
              tailTtl: tail,
            });
          } catch (error) {
            // Only a caller's own impossible placement may be refused.
            expect(error).toBeInstanceOf(ProviderInputError);
            expect((error as Error).message).toMatch(/the caller placed \d breakpoints|1-hour entries first/);
            return;
          }
          expect(JSON.stringify(messages)).toBe(before);
          const ttls = ttlsInOrder(result.request);
          expect(ttls.length).toBeLessThanOrEqual(4);
          for (let index = 1; index < ttls.length; index++)
            expect(RANK[ttls[index]]).toBeLessThanOrEqual(RANK[ttls[index - 1]]);
          expect(result.anthropicBeta.length > 0).toBe(ttls.includes('1h'));
          for (const message of result.request.messages as Array<Record<string, unknown>>)
            expect(Object.keys(message)).toEqual(['role', 'content']);
          const callerCount = JSON.stringify(messages).split('"cache_control"').length - 1;
          expect(ttls.length).toBe(Math.min(4, callerCount + result.breakpoints.length));
        },
      ),
      { seed: 20261201, numRuns: 80 },
    );
  });
});

describe('CLI file round trips over generated histories', () => {
  it('Claude Code: any Anthropic history written as a session reads back as its rows', () => {
    fc.assert(
      fc.property(
        arbitraryHistory(SHAPE, 'anthropic'),
        fc.integer({ min: 1_000, max: 8_000 }),
        fc.boolean(),
        (generated, ceiling, fold) => {
          // Claude Code keeps no system prompt in its files.
          const history = generated.history.filter((message) => message.role !== 'system');
          const messages = fold ? new FoldSession({ pressureCeiling: ceiling }).prepare(history).messages : history;
          const written = buildClaudeCodeSession({ messages, sessionId: 's', cwd: '/w', now: () => 0 });
          const read = readClaudeCodeJsonl(written.text);
          expect(read.issues).toEqual([]);
          expect(read.messages).toEqual(
            claudeCodeRows(messages).filter((row) => !(Array.isArray(row.content) && row.content.length === 0)),
          );
        },
      ),
      { seed: 7, numRuns: 80 },
    );
  });

  it('Gemini CLI: a history read from a chat file, rewritten as records, reads back the same', () => {
    fc.assert(
      fc.property(arbitraryHistory(SHAPE, 'gemini'), (generated) => {
        const header = JSON.stringify({ sessionId: 's', projectHash: 'h', startTime: 't', lastUpdated: 't' });
        // Gemini CLI keeps no system instruction in its chat files.
        const history = generated.history.filter((message) => message.role !== 'system');
        const first = readGeminiCliChat(
          [header, JSON.stringify({ $set: { messages: geminiCliMessageRecords(history, { now: () => 0 }) } })].join(
            '\n',
          ),
        );
        const second = readGeminiCliChat(
          [
            header,
            JSON.stringify({ $set: { messages: geminiCliMessageRecords(first.messages, { now: () => 0 }) } }),
          ].join('\n'),
        );
        expect(second.messages).toEqual(first.messages);
        expect(() => new FoldSession({ pressureCeiling: 4_000 }).prepare(first.messages)).not.toThrow();
      }),
      { seed: 11, numRuns: 80 },
    );
  });
});
