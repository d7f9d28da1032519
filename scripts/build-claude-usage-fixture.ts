// Run: npx tsx scripts/build-claude-usage-fixture.ts
// Derives test/fixtures/claude-code/<SESSION>.jsonl from the plain Claude Code fixture: what
// Claude Code 2.x records that the plain fixture lacks. Every assistant line carries its call's
// whole `usage` (each line of one message id the same, as Claude Code writes one line per content
// block), thinking blocks carry a long `signature`, and the second user turn pastes a PNG
// screenshot as a base64 image block. Deterministic: same input, same bytes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const FIXTURES = join(fileURLToPath(new URL('.', import.meta.url)), '../test/fixtures/claude-code');
const SOURCE = join(FIXTURES, '57bb5674-54b1-4ce6-9157-2d341cd9bfc1.jsonl');
export const USAGE_SESSION = '7d1c2e9a-5b3f-4c8e-9a21-3f6b0c4d8e17';
/** Claude Code's system prompt and tool definitions: in every prompt, in no transcript line. */
const PROMPT_OVERHEAD_TOKENS = 18_431;

/** A deterministic pseudo-random byte stream (LCG), so the fixture rebuilds byte for byte. */
function bytes(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  let state = seed >>> 0;
  for (let index = 0; index < length; index++) {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    out[index] = state >>> 24;
  }
  return out;
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = crcTable[(c ^ byte) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid 1280 × 800 RGB PNG: a terminal-like dark screen with noisy text rows. */
function screenshot(): Buffer {
  const width = 1280;
  const height = 800;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3, 24);
    row[0] = 0;
    // a few bands of "text": noise a compressor cannot remove
    if (y % 40 < 3 && y < 560) bytes(width * 3, y).copy(row, 1, 0, Math.floor((width * 3) / (6 + (y % 5))));
    rows.push(row);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

type Line = Record<string, unknown> & { message?: Record<string, unknown>; type?: string; sessionId?: string };
const lines = readFileSync(SOURCE, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((text) => JSON.parse(text) as Line);

const image = screenshot().toString('base64');
let userTurns = 0;
let thinkingBlocks = 0;
// a rough size of what each line adds to the prompt (the recorded numbers only need to be plausible and fixed)
const sizeOf = (value: unknown): number => Math.ceil(JSON.stringify(value).length / 3.6);
let promptTokens = PROMPT_OVERHEAD_TOKENS;
let previousPrompt = 0;
const usageOf = new Map<string, Record<string, unknown>>();
let calls = 0;

for (const line of lines) {
  if (line.sessionId !== undefined) line.sessionId = USAGE_SESSION;
  const message = line.message;
  if (message === undefined) continue;
  if (line.type === 'user' && typeof message.content === 'string' && ++userTurns === 2) {
    message.content = [
      { type: 'text', text: message.content },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: image } },
    ];
    promptTokens += 1_366; // the provider's count of the image, not its base64
  }
  if (line.type === 'assistant' && Array.isArray(message.content)) {
    for (const block of message.content as Array<Record<string, unknown>>) {
      if (block.type === 'thinking')
        block.signature = bytes(1_197 + ((thinkingBlocks++ * 211) % 600), 7_919 + thinkingBlocks).toString('base64');
    }
    const id = String(message.id);
    let usage = usageOf.get(id);
    if (usage === undefined) {
      calls++;
      const fresh = 3;
      const read = previousPrompt;
      const written = promptTokens - read - fresh;
      // Claude Code buys 1-hour cache entries; every third call here a 5-minute one, so both prices are exercised
      const oneHour = calls % 3 === 0 ? 0 : written;
      usage = {
        input_tokens: fresh,
        cache_creation_input_tokens: written,
        cache_read_input_tokens: read,
        cache_creation: { ephemeral_5m_input_tokens: written - oneHour, ephemeral_1h_input_tokens: oneHour },
        output_tokens: 0,
        service_tier: 'standard',
      };
      usageOf.set(id, usage);
      previousPrompt = promptTokens;
    }
    // the whole call's output, on every line of the call
    usage.output_tokens = (usage.output_tokens as number) + sizeOf(message.content);
    message.usage = usage;
  }
  promptTokens += sizeOf(message.content);
}

const target = join(FIXTURES, `${USAGE_SESSION}.jsonl`);
writeFileSync(target, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
console.log(`${target}: ${lines.length} lines, ${calls} calls, image ${image.length} base64 chars`);
