import type { ProviderMessage } from '../../messages/types.ts';
import { isRecord } from '../../text/is-record.ts';
import { ProviderInputError } from '../provider-error.ts';
import {
  ANTHROPIC_EXTENDED_TTL_BETA,
  ANTHROPIC_MAX_BREAKPOINTS,
  cacheControl,
  comparePositions,
  DEFAULT_VOLATILE_SYSTEM_MARKER,
  longerTtl,
  shorterTtl,
  ttlOf,
  type AnthropicCacheTtl,
  type BreakpointSite,
  type PlacedBreakpoint,
} from './cache-breakpoints.ts';

type Block = Record<string, unknown>;

export interface AnthropicTextBlock {
  readonly type: 'text';
  readonly text: string;
  readonly cache_control?: { readonly type: 'ephemeral'; readonly ttl?: AnthropicCacheTtl };
}

export interface AnthropicCachedRequestOptions {
  /** The view `FoldSession.prepare` returned (Anthropic dialect: user / assistant messages). */
  readonly messages: readonly ProviderMessage[];
  /** `prepare(...).sealedBoundary`: the last message of the byte-stable sealed prefix, or null. */
  readonly sealedBoundary: number | null;
  readonly system?: string | readonly AnthropicTextBlock[];
  readonly tools?: readonly Record<string, unknown>[];
  /** TTL for every breakpoint this helper places; 5 minutes by default. */
  readonly ttl?: AnthropicCacheTtl;
  /** TTL for the tools, system head and sealed-boundary breakpoints (overrides `ttl`). */
  readonly prefixTtl?: AnthropicCacheTtl;
  /** TTL for the rolling-tail breakpoint (overrides `ttl`); never longer than the prefix's. */
  readonly tailTtl?: AnthropicCacheTtl;
  /** Where the system prompt's volatile tail starts; `null` caches the whole system prompt. */
  readonly volatileSystemMarker?: string | null;
  /** Other request fields (`model`, `max_tokens`, `temperature`, …), copied into the request as given. */
  readonly params?: Readonly<Record<string, unknown>>;
}

export interface AnthropicCachedRequest {
  /** The Messages API body: `params`, then `system`, `tools` and `messages` with breakpoints. */
  readonly request: Record<string, unknown>;
  /** Per-request options for the `@anthropic-ai/sdk` client: the beta header when a 1-hour TTL is used. */
  readonly requestOptions: { readonly headers?: Readonly<Record<string, string>> };
  /** Beta flags the request needs (for `client.beta.messages.create({ betas })`). */
  readonly anthropicBeta: readonly string[];
  /** Which breakpoints this helper placed, in prefix order, with their TTLs. */
  readonly breakpoints: readonly PlacedBreakpoint[];
}

const RESERVED_PARAMS = ['messages', 'system', 'tools'];
/** Block types that cannot carry `cache_control` themselves. */
const UNCACHEABLE_BLOCKS = new Set(['thinking', 'redacted_thinking']);
const SECTION = { tools: 0, system: 1, messages: 2 } as const;

function isCacheable(block: unknown): boolean {
  if (!isRecord(block) || typeof block.type !== 'string' || UNCACHEABLE_BLOCKS.has(block.type)) return false;
  return block.type !== 'text' || (typeof block.text === 'string' && block.text !== '');
}

/** Content as blocks; a string becomes one text block so it can carry `cache_control`. */
function blocksOf(content: unknown): Block[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return Array.isArray(content) ? (content as Block[]) : [];
}

function lastCacheableBlock(content: unknown): number {
  const blocks = blocksOf(content);
  for (let index = blocks.length - 1; index >= 0; index--) if (isCacheable(blocks[index])) return index;
  return -1;
}

/** System blocks split at the volatile marker; `head` is the index of the last stable block (−1 when none). */
function splitSystem(
  system: string | readonly AnthropicTextBlock[],
  marker: string | null,
): { blocks: Block[]; head: number } {
  const blocks: Block[] =
    typeof system === 'string'
      ? system === ''
        ? []
        : [{ type: 'text', text: system }]
      : system.map((block) => ({ ...block }));
  if (marker === null || marker === '') return { blocks, head: blocks.length - 1 };
  for (let index = 0; index < blocks.length; index++) {
    const text = typeof blocks[index].text === 'string' ? (blocks[index].text as string) : '';
    const at = text.indexOf(marker);
    if (at < 0) continue;
    if (at === 0) return { blocks, head: index - 1 };
    const { cache_control: _dropped, ...rest } = blocks[index];
    const head = { ...rest, text: text.slice(0, at) };
    const tail = { ...blocks[index], text: text.slice(at) };
    blocks.splice(index, 1, head, tail);
    return { blocks, head: index };
  }
  return { blocks, head: blocks.length - 1 };
}

interface Candidate {
  readonly site: BreakpointSite;
  readonly position: readonly [number, number, number];
  readonly desired: AnthropicCacheTtl;
}

/**
 * Turns a prepared view into an Anthropic Messages request whose stable parts are cache-marked:
 * the last tool definition, the stable head of the system prompt (before `## Your Identity` by
 * default), the sealed fold boundary and the rolling tail, at most four breakpoints counting any
 * the caller already placed (kept as they are). When slots run short the sealed boundary goes
 * first, then the tail, the system head and the tools. TTLs never lengthen along the prefix (the
 * API requires 1-hour entries before 5-minute ones); a `'1h'` TTL adds the beta header. Messages
 * go out as `{ role, content }` only, copied where a breakpoint is set; the input is never changed.
 * System messages opening the view (a host that keeps its system prompt in the history) become
 * the request's `system`.
 */
export function prepareAnthropicCachedRequest(options: AnthropicCachedRequestOptions): AnthropicCachedRequest {
  const { messages, sealedBoundary } = options;
  if (!Array.isArray(messages)) throw new ProviderInputError('anthropic', 'messages', 'expected an array of messages');
  if (
    sealedBoundary !== null &&
    (!Number.isInteger(sealedBoundary) || sealedBoundary < 0 || sealedBoundary >= messages.length)
  ) {
    throw new ProviderInputError(
      'anthropic',
      'sealedBoundary',
      `expected null or a message index in [0, ${messages.length}), got ${String(sealedBoundary)}`,
    );
  }
  for (const key of RESERVED_PARAMS)
    if (options.params !== undefined && key in options.params)
      throw new ProviderInputError('anthropic', `params.${key}`, `pass ${key} as its own option, not in params`);
  for (const ttlKey of ['ttl', 'prefixTtl', 'tailTtl'] as const) {
    const value = options[ttlKey];
    if (value !== undefined && value !== '5m' && value !== '1h')
      throw new ProviderInputError('anthropic', ttlKey, `expected '5m' or '1h', got ${JSON.stringify(value)}`);
  }
  // A view may open with system messages (hosts that keep the system prompt in the history): they become `system`.
  let lifted = 0;
  while (lifted < messages.length && isRecord(messages[lifted]) && messages[lifted].role === 'system') lifted++;
  if (lifted > 0 && options.system !== undefined)
    throw new ProviderInputError(
      'anthropic',
      'system',
      'the view opens with system messages and `system` is given too; pass the system prompt one way',
    );
  const liftedSystem: AnthropicTextBlock[] = messages.slice(0, lifted).flatMap((message, index) => {
    const content = message.content;
    if (typeof content === 'string') return content === '' ? [] : [{ type: 'text' as const, text: content }];
    if (
      Array.isArray(content) &&
      content.every((block) => isRecord(block) && block.type === 'text' && typeof block.text === 'string')
    )
      return content as AnthropicTextBlock[];
    throw new ProviderInputError(
      'anthropic',
      `messages[${index}].content`,
      'a system message must hold a string or text blocks',
    );
  });
  const boundary = sealedBoundary === null || sealedBoundary < lifted ? null : sealedBoundary - lifted;
  const outMessages: Block[] = messages.slice(lifted).map((message, at) => {
    const index = at + lifted;
    if (!isRecord(message))
      throw new ProviderInputError('anthropic', `messages[${index}]`, 'expected a message object');
    if (message.role !== 'user' && message.role !== 'assistant')
      throw new ProviderInputError(
        'anthropic',
        `messages[${index}].role`,
        `expected 'user' or 'assistant', got ${JSON.stringify(message.role)}${message.role === 'system' ? ' after the opening system messages' : ''}`,
      );
    if (typeof message.content !== 'string' && !Array.isArray(message.content))
      throw new ProviderInputError('anthropic', `messages[${index}].content`, 'expected a string or a block list');
    return { role: message.role, content: message.content };
  });
  const tools = options.tools?.map((tool) => ({ ...tool }));
  const marker =
    options.volatileSystemMarker === undefined ? DEFAULT_VOLATILE_SYSTEM_MARKER : options.volatileSystemMarker;
  const systemInput = options.system ?? (lifted > 0 ? liftedSystem : undefined);
  const system = systemInput === undefined ? undefined : splitSystem(systemInput, marker);

  // Breakpoints the caller already placed: kept, counted, and part of the TTL order.
  const caller: PlacedBreakpoint[] = [];
  tools?.forEach((tool, index) => {
    if (tool.cache_control !== undefined)
      caller.push({ site: 'caller', position: [SECTION.tools, index, 0], ttl: ttlOf(tool.cache_control) });
  });
  system?.blocks.forEach((block, index) => {
    if (block.cache_control !== undefined)
      caller.push({ site: 'caller', position: [SECTION.system, index, 0], ttl: ttlOf(block.cache_control) });
  });
  outMessages.forEach((message, index) => {
    blocksOf(message.content).forEach((block, blockIndex) => {
      if (isRecord(block) && block.cache_control !== undefined)
        caller.push({
          site: 'caller',
          position: [SECTION.messages, index, blockIndex],
          ttl: ttlOf(block.cache_control),
        });
    });
  });
  if (caller.length > ANTHROPIC_MAX_BREAKPOINTS)
    throw new ProviderInputError(
      'anthropic',
      'cache_control',
      `the caller placed ${caller.length} breakpoints; the API allows ${ANTHROPIC_MAX_BREAKPOINTS}`,
    );

  const prefixTtl = options.prefixTtl ?? options.ttl ?? '5m';
  const tailTtl = options.tailTtl ?? options.ttl ?? '5m';
  const taken = (position: readonly number[]) =>
    caller.some((placed) => comparePositions(placed.position, position) === 0);
  const candidates: Candidate[] = [];
  const messageCandidate = (site: BreakpointSite, index: number | null, ttl: AnthropicCacheTtl) => {
    if (index === null || index < 0) return;
    const block = lastCacheableBlock(outMessages[index].content);
    if (
      block < 0 ||
      candidates.some((candidate) => candidate.position[1] === index && candidate.position[0] === SECTION.messages)
    )
      return;
    const position = [SECTION.messages, index, block] as const;
    if (!taken(position)) candidates.push({ site, position, desired: ttl });
  };
  // Priority order: what survives a shortage of slots comes first.
  messageCandidate('sealed-boundary', boundary, prefixTtl);
  messageCandidate('tail', outMessages.length - 1, tailTtl);
  if (system !== undefined && system.head >= 0 && !caller.some((placed) => placed.position[0] === SECTION.system))
    candidates.push({ site: 'system', position: [SECTION.system, system.head, 0], desired: prefixTtl });
  if (tools !== undefined && tools.length > 0 && !caller.some((placed) => placed.position[0] === SECTION.tools))
    candidates.push({ site: 'tools', position: [SECTION.tools, tools.length - 1, 0], desired: prefixTtl });
  const chosen = candidates.slice(0, Math.max(0, ANTHROPIC_MAX_BREAKPOINTS - caller.length));

  // TTL order along the prefix: each breakpoint no longer than any before it, and no shorter than a caller's after it.
  const all = [
    ...caller.map((placed) => ({ placed, ours: false as const })),
    ...chosen.map((candidate) => ({
      placed: { site: candidate.site, position: candidate.position, ttl: candidate.desired } as PlacedBreakpoint,
      ours: true as const,
    })),
  ].sort((a, b) => comparePositions(a.placed.position, b.placed.position));
  const placed: PlacedBreakpoint[] = [];
  let ceiling: AnthropicCacheTtl = '1h';
  all.forEach((entry, index) => {
    const laterCaller = all
      .slice(index + 1)
      .filter((later) => !later.ours)
      .map((later) => later.placed.ttl);
    const floor = laterCaller.reduce<AnthropicCacheTtl>((a, b) => longerTtl(a, b), '5m');
    const ttl = entry.ours ? longerTtl(shorterTtl(entry.placed.ttl, ceiling), floor) : entry.placed.ttl;
    if (longerTtl(ttl, ceiling) !== ceiling)
      throw new ProviderInputError(
        'anthropic',
        'cache_control',
        'a caller-placed 1-hour breakpoint follows a 5-minute one; the API requires 1-hour entries first',
      );
    ceiling = ttl;
    placed.push({ ...entry.placed, ttl });
  });

  for (const breakpoint of placed) {
    if (breakpoint.site === 'caller') continue;
    const [section, index, blockIndex] = breakpoint.position;
    if (section === SECTION.tools) tools![index] = { ...tools![index], cache_control: cacheControl(breakpoint.ttl) };
    else if (section === SECTION.system)
      system!.blocks[index] = { ...system!.blocks[index], cache_control: cacheControl(breakpoint.ttl) };
    else {
      const blocks = blocksOf(outMessages[index].content).slice();
      blocks[blockIndex] = { ...blocks[blockIndex], cache_control: cacheControl(breakpoint.ttl) };
      outMessages[index] = { role: outMessages[index].role, content: blocks };
    }
  }

  const usesLongTtl = placed.some((breakpoint) => breakpoint.ttl === '1h');
  const request: Record<string, unknown> = { ...options.params };
  if (system !== undefined && system.blocks.length > 0)
    request.system =
      typeof systemInput === 'string' && system.blocks.every((block) => block.cache_control === undefined)
        ? systemInput
        : system.blocks;
  if (tools !== undefined) request.tools = tools;
  request.messages = outMessages;
  return {
    request,
    requestOptions: usesLongTtl ? { headers: { 'anthropic-beta': ANTHROPIC_EXTENDED_TTL_BETA } } : {},
    anthropicBeta: usesLongTtl ? [ANTHROPIC_EXTENDED_TTL_BETA] : [],
    breakpoints: placed.filter((breakpoint) => breakpoint.site !== 'caller'),
  };
}
