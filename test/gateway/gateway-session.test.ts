import { describe, expect, it } from 'vitest';
import { createGateway, type Gateway, type LedgerLine, memoryLedger } from '../../src/gateway/index.ts';
import { topLevelSpans } from '../../src/gateway/json-spans.ts';
import { createMemoryStore } from '../../src/storage/memory.ts';
import type { ProviderMessage } from '../../src/index.ts';
import { countTokens } from '../../src/tokens/count-tokens.ts';
import { countMessageTokens, countPromptTokens } from '../../src/tokens/message-tokens.ts';
import { CLAUDE_HEADERS, claudeCodeBody } from '../helpers/agent-requests.ts';
import { ScriptedUpstream } from '../helpers/scripted-upstream.ts';

const CEILING = 40_000;

type Message = { role: string; content: unknown };
type Block = Record<string, unknown>;

function blocks(message: Message): Block[] {
  return Array.isArray(message.content) ? (message.content as Block[]) : [];
}

function breakpoints(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + breakpoints(item), 0);
  if (value === null || typeof value !== 'object') return 0;
  return Object.entries(value).reduce(
    (sum, [key, inner]) => sum + (key === 'cache_control' ? 1 : breakpoints(inner)),
    0,
  );
}

/** Every tool_result answers a tool_use of the message just before it, and every tool_use is answered next. */
function pairingProblems(messages: Message[]): string[] {
  const problems: string[] = [];
  messages.forEach((message, index) => {
    const uses = blocks(message)
      .filter((block) => block.type === 'tool_use')
      .map((block) => block.id);
    const next = messages[index + 1];
    const answered = next
      ? blocks(next)
          .filter((block) => block.type === 'tool_result')
          .map((block) => block.tool_use_id)
      : [];
    for (const id of uses)
      if (next !== undefined && !answered.includes(id)) problems.push(`tool_use ${String(id)} at ${index} unanswered`);
    const results = blocks(message)
      .filter((block) => block.type === 'tool_result')
      .map((block) => block.tool_use_id);
    const previous = messages[index - 1];
    const asked = previous
      ? blocks(previous)
          .filter((block) => block.type === 'tool_use')
          .map((block) => block.id)
      : [];
    for (const id of results)
      if (!asked.includes(id)) problems.push(`tool_result ${String(id)} at ${index} without its call`);
  });
  return problems;
}

async function send(gateway: Gateway, body: Record<string, unknown>, headers: Record<string, string> = CLAUDE_HEADERS) {
  const response = await gateway.handle(
    new Request('http://127.0.0.1:9/v1/messages?beta=true', { method: 'POST', headers, body: JSON.stringify(body) }),
  );
  const text = await response.text();
  await gateway.idle();
  return { response, text };
}

describe('gateway: a Claude Code session at a 40,000 ceiling', () => {
  it.each([
    { scale: 1, outputs: '24–47 KB outputs', minimumHot: 0 },
    { scale: 0.2, outputs: '5–9 KB outputs', minimumHot: 10 },
  ])(
    '$outputs: every forwarded request under the ceiling, valid, cache-stable and honest',
    async ({ scale, minimumHot }) => {
      const upstream = new ScriptedUpstream();
      const ledger = memoryLedger();
      let clock = 1_700_000_000_000;
      const gateway = createGateway({
        storage: createMemoryStore(),
        fetch: upstream.fetch,
        now: () => (clock += 1_000),
        ceiling: CEILING,
        ledger,
        upstreams: { anthropic: 'http://upstream.test' },
        countTokens,
      });
      const calls = 40;
      const verdicts: string[] = [];
      // the live turn is shown whole whenever it fits in half the engine's ceiling (the ceiling less
      // system and tools, less the engine's 1% safety margin), counted as both hosts count, with o200k
      const tooLargeLive: number[] = [];
      for (let call = 1; call <= calls; call++) {
        const body = claudeCodeBody(call, undefined, scale);
        const sent = JSON.stringify(body);
        const { response, text } = await send(gateway, body);
        expect(response.status).toBe(200);
        expect(text).toContain('message_stop');
        const verdict = response.headers.get('x-warpfold-verdict') ?? '';
        verdicts.push(verdict);
        // the answer names the call's session and, when it sealed a new prefix, why: as its ledger line does
        const line = (await ledger.lines()).at(-1);
        expect(response.headers.get('x-warpfold-session-id') ?? undefined).toBe(line?.session);
        expect(response.headers.get('x-warpfold-epoch') ?? undefined).toBe(
          verdict === 'folded' ? line?.epochReason : undefined,
        );
        const forwarded = upstream.calls[upstream.calls.length - 1];
        expect(forwarded.path).toBe('/v1/messages?beta=true');
        // headers reach the provider as sent
        for (const [name, value] of Object.entries(CLAUDE_HEADERS)) expect(forwarded.headers.get(name)).toBe(value);
        const forwardedBody = forwarded.body as { messages: Message[]; system: unknown; tools: unknown };
        // system, tools and every field but messages: the client's bytes
        const before = topLevelSpans(sent);
        const after = topLevelSpans(forwarded.text);
        for (const field of ['system', 'tools', 'metadata', 'thinking', 'model', 'max_tokens', 'stream']) {
          const [a, b] = [before?.get(field), after?.get(field)];
          expect(forwarded.text.slice(b?.[0], b?.[1])).toBe(sent.slice(a?.[0], a?.[1]));
        }
        // under the ceiling, counted as the provider bills: system, tools, messages
        const billed =
          countTokens(JSON.stringify(forwardedBody.system)) +
          countTokens(JSON.stringify(forwardedBody.tools)) +
          countPromptTokens(forwardedBody.messages as ProviderMessage[], countTokens).reduce((sum, n) => sum + n, 0);
        if (verdict.startsWith('folded')) expect(billed).toBeLessThanOrEqual(CEILING);
        expect(pairingProblems(forwardedBody.messages)).toEqual([]);
        expect(breakpoints(forwardedBody)).toBeLessThanOrEqual(4);
        // a signed thinking block in the view is the client's, byte for byte
        for (const message of forwardedBody.messages)
          for (const block of blocks(message))
            if (block.type === 'thinking') expect(sent).toContain(JSON.stringify(block));
        const live = (body.messages as Message[]).at(-1);
        const liveTokens = countMessageTokens(live as ProviderMessage, countTokens);
        const engineCeiling =
          CEILING -
          countTokens(JSON.stringify(forwardedBody.system)) -
          countTokens(JSON.stringify(forwardedBody.tools));
        if (verdict === 'folded' && JSON.stringify(forwardedBody.messages.at(-1)) !== JSON.stringify(live)) {
          expect(liveTokens).toBeGreaterThan(0.99 * (engineCeiling / 2));
          tooLargeLive.push(call);
        }
      }
      expect(verdicts.every((verdict) => /^(folded|passthrough; reason=[a-z-]+)$/.test(verdict))).toBe(true);
      expect(verdicts.filter((verdict) => verdict === 'folded').length).toBeGreaterThan(calls / 2);
      if (scale < 1) expect(tooLargeLive).toEqual([]);

      // the sealed prefix holds within each epoch: up to the gateway's boundary breakpoint, a call that
      // sealed nothing sends the last call's bytes again
      const lines = (await ledger.lines()) as LedgerLine[];
      expect(lines).toHaveLength(calls);
      const boundaryOf = (messages: Message[]) => {
        for (let index = messages.length - 2; index >= 0; index--) if (breakpoints(messages[index]) > 0) return index;
        return -1;
      };
      let hotChecked = 0;
      for (let index = 1; index < calls; index++) {
        if (lines[index].verdict !== 'folded' || lines[index - 1].verdict !== 'folded' || lines[index].epochReason)
          continue;
        const previous = (upstream.calls[index - 1].body as { messages: Message[] }).messages;
        const next = (upstream.calls[index].body as { messages: Message[] }).messages;
        const boundary = boundaryOf(next);
        expect(boundary).toBeGreaterThanOrEqual(0);
        expect(boundaryOf(previous)).toBe(boundary);
        expect(JSON.stringify(next.slice(0, boundary + 1)) === JSON.stringify(previous.slice(0, boundary + 1))).toBe(
          true,
        );
        hotChecked++;
      }
      expect(hotChecked).toBeGreaterThanOrEqual(minimumHot);

      // the ledger: one line per call, the provider's usage, forwarded under raw once folding
      const session = lines.find((line) => line.session !== undefined)?.session;
      for (const line of lines) {
        expect(line.status).toBe(200);
        expect(line.inputTokens).toBeGreaterThanOrEqual(0);
        if (line.verdict === 'folded') {
          expect(line.session).toBe(session);
          expect(line.forwardedTokens).toBeLessThan(line.rawTokens as number);
          expect(line.forwardedTokens).toBeLessThanOrEqual(CEILING);
          expect(line.foldMs).toBeGreaterThanOrEqual(0);
        }
      }
      const cacheRead = lines.reduce((sum, line) => sum + (line.cacheReadTokens ?? 0), 0);
      const input = lines.reduce(
        (sum, line) => sum + (line.inputTokens ?? 0) + (line.cacheReadTokens ?? 0) + (line.cacheWriteTokens ?? 0),
        0,
      );
      expect(cacheRead / input).toBeGreaterThan(scale < 1 ? 0.6 : 0.3);
    },
    120_000,
  );
});
