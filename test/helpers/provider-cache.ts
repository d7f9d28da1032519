import { createHash } from 'node:crypto';

/** Characters per token for the stand-in servers' counts: rough, but the same for every request. */
const CHARS_PER_TOKEN = 4;
/** Anthropic looks for a cached prefix at each breakpoint and up to this many blocks before it. */
const ANTHROPIC_LOOKBACK_BLOCKS = 20;
/** OpenAI caches prompts from 1,024 tokens, in steps of 128. */
const OPENAI_MIN_CACHED = 1_024;
const OPENAI_CACHE_STEP = 128;

const tokens = (chars: number) => Math.ceil(chars / CHARS_PER_TOKEN);

type Block = Record<string, unknown>;
const withoutCacheControl = ({ cache_control: _ignored, ...rest }: Block) => rest;
const blocksOf = (content: unknown): Block[] =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : (content as Block[]);

/**
 * Prompt-cache accounting the way Anthropic describes it: prefixes are written at `cache_control`
 * breakpoints (tools, then system, then message blocks), and a later request reads the longest
 * written prefix found at one of its breakpoints or up to 20 blocks before it.
 */
export class AnthropicCacheSimulator {
  private readonly written = new Set<string>();

  /** The request's input tokens, as `count_tokens` answers: nothing read, nothing written. */
  estimate(request: { tools?: Block[]; system?: string | Block[]; messages: unknown }): number {
    const text =
      JSON.stringify(request.tools ?? []) + JSON.stringify(request.system ?? '') + JSON.stringify(request.messages);
    return tokens(text.length);
  }

  usage(request: { tools?: Block[]; system?: string | Block[]; messages: Array<{ role: string; content: unknown }> }): {
    input_tokens: number;
    cache_read_input_tokens: number;
    cache_creation_input_tokens: number;
  } {
    const segments: Array<{ text: string; marked: boolean }> = [];
    for (const tool of request.tools ?? [])
      segments.push({ text: JSON.stringify(withoutCacheControl(tool)), marked: tool.cache_control !== undefined });
    for (const block of request.system === undefined ? [] : blocksOf(request.system))
      segments.push({ text: JSON.stringify(withoutCacheControl(block)), marked: block.cache_control !== undefined });
    for (const message of request.messages)
      for (const block of blocksOf(message.content))
        segments.push({
          text: message.role + JSON.stringify(withoutCacheControl(block)),
          marked: block.cache_control !== undefined,
        });
    const prefixHashes: string[] = [];
    const prefixTokens: number[] = [];
    // one running digest, read at each segment: the same hashes as hashing each whole prefix, in linear time
    const running = createHash('sha1');
    let length = 0;
    for (const segment of segments) {
      running.update(segment.text);
      length += segment.text.length;
      prefixHashes.push(running.copy().digest('hex'));
      prefixTokens.push(tokens(length));
    }
    const total = tokens(length);
    const breakpoints = segments.flatMap((segment, index) => (segment.marked ? [index] : []));
    let read = 0;
    for (const at of breakpoints)
      for (let back = at; back >= Math.max(0, at - ANTHROPIC_LOOKBACK_BLOCKS); back--)
        if (this.written.has(prefixHashes[back])) read = Math.max(read, prefixTokens[back]);
    const last = breakpoints.length === 0 ? -1 : breakpoints[breakpoints.length - 1];
    const write = last < 0 ? 0 : Math.max(0, prefixTokens[last] - read);
    for (const at of breakpoints) this.written.add(prefixHashes[at]);
    return { input_tokens: total - read - write, cache_read_input_tokens: read, cache_creation_input_tokens: write };
  }
}

/**
 * An automatic prefix cache: the longest prefix shared with an earlier prompt counts as cached, from
 * `minimum` tokens in steps of `step`. OpenAI's defaults: 1,024 and 128.
 */
export class OpenAICacheSimulator {
  private readonly seen: string[] = [];

  constructor(
    private readonly minimum = OPENAI_MIN_CACHED,
    private readonly step = OPENAI_CACHE_STEP,
  ) {}

  usage(request: { tools?: unknown; messages: unknown }): { prompt_tokens: number; cached_tokens: number } {
    const text = JSON.stringify(request.tools ?? []) + JSON.stringify(request.messages);
    let shared = 0;
    for (const earlier of this.seen) {
      let at = 0;
      const limit = Math.min(earlier.length, text.length);
      while (at < limit && earlier.charCodeAt(at) === text.charCodeAt(at)) at++;
      shared = Math.max(shared, at);
    }
    this.seen.push(text);
    const sharedTokens = Math.floor(shared / CHARS_PER_TOKEN);
    const cached = sharedTokens < this.minimum ? 0 : Math.floor(sharedTokens / this.step) * this.step;
    return { prompt_tokens: tokens(text.length), cached_tokens: cached };
  }
}

/** Gemini's implicit cache: a shared prefix of 1,024 tokens or more is read from cache, to the token. */
export class GeminiCacheSimulator extends OpenAICacheSimulator {
  constructor() {
    super(1_024, 1);
  }
}
