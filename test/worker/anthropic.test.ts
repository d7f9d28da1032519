import { describe, expect, it } from 'vitest';
import { FoldSession } from '../../src/index.ts';
import { prepareAnthropicCachedRequest } from '../../src/providers/anthropic/index.ts';
import { readClaudeCodeJsonl } from '../../src/transcripts/index.ts';
import transcript from '../fixtures/claude-code/57bb5674-54b1-4ce6-9157-2d341cd9bfc1.jsonl?raw';
import { call, freshId, json } from './worker-client.ts';

/** A real Claude Code session (see test/fixtures/README.md), read into Anthropic messages. */
const history = readClaudeCodeJsonl(transcript).messages;
const options = { pressureCeiling: 6_000 };
const CLOCK = 1_760_000_000_000;
const cache = { system: 'You are a careful coding agent.', params: { model: 'claude-sonnet-4-5', max_tokens: 1024 } };

describe('POST /v1/anthropic/prepare', () => {
  it('returns the Messages request the provider helper builds over the session view', async () => {
    expect(history.length).toBeGreaterThan(20);
    const sessionId = freshId('anthropic');
    const local = new FoldSession({ ...options, now: () => CLOCK });
    let digest: string | undefined;
    for (const cut of [Math.floor(history.length / 2), history.length]) {
      const body =
        digest === undefined
          ? { sessionId, messages: history.slice(0, cut), options, now: CLOCK, ...cache }
          : {
              sessionId,
              append: history.slice(Math.floor(history.length / 2), cut),
              prefixDigest: digest,
              now: CLOCK,
              ...cache,
            };
      const response = await call('POST', '/v1/anthropic/prepare', { body });
      expect(response.status).toBe(200);
      const result = await json(response);
      const view = local.prepare(history.slice(0, cut));
      const expected = prepareAnthropicCachedRequest({
        ...cache,
        messages: view.messages,
        sealedBoundary: view.sealedBoundary,
      });
      expect(JSON.stringify(result.request)).toBe(JSON.stringify(expected.request));
      expect(result.breakpoints).toEqual(JSON.parse(JSON.stringify(expected.breakpoints)));
      expect(result.request.model).toBe('claude-sonnet-4-5');
      digest = result.digest;
    }
    expect((await json(await call('GET', `/v1/sessions/${sessionId}`))).length).toBe(history.length);
  });

  it('folds once without a session, and names a bad cache option', async () => {
    const once = await json(
      await call('POST', '/v1/anthropic/prepare', { body: { messages: history, options, now: CLOCK, ...cache } }),
    );
    const view = new FoldSession({ ...options, now: () => CLOCK }).prepare(history);
    expect(JSON.stringify(once.request)).toBe(
      JSON.stringify(
        prepareAnthropicCachedRequest({ ...cache, messages: view.messages, sealedBoundary: view.sealedBoundary })
          .request,
      ),
    );
    const bad = await json(await call('POST', '/v1/anthropic/prepare', { body: { messages: history, ttl: '10m' } }));
    expect(bad.error.field).toBe('ttl');
    const orphan = await json(await call('POST', '/v1/anthropic/prepare', { body: { append: history.slice(0, 2) } }));
    expect(orphan.error.field).toBe('append');
  });
});
