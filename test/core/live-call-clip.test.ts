/**
 * A Write that carries a whole file, once its result is in: the view shows the call's arguments
 * clipped (the call keeps its shape, the path whole, the cut's identifiers named) and seals one
 * more band, instead of re-folding the sealed bands to make room for the agent's own copy of a
 * file the tool has already written. In every dialect.
 */
import { modelMessageSchema } from 'ai';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { FoldSession, type FoldOutcome } from '../../src/index.ts';
import { clipText } from '../../src/messages/write-synthetic.ts';
import type { CanonicalScript, CanonicalStep } from '../helpers/canonical.ts';
import { callsOf, DIALECTS, toDialect, type Dialect, type ProviderMessage } from '../helpers/dialects.ts';
import { viewTokens } from '../helpers/view-checks.ts';

const CEILING = 8_000;
const WRITTEN_PATH = 'src/service/generated_routes.py';

function moduleSource(step: number, lines: number): string {
  const out: string[] = [];
  for (let line = 0; line < lines; line++)
    out.push(
      `def handler_${step}_${line}(request):  # src/service/module_${step}.py:${line + 1}`,
      `    return dispatch_table_${step}[${line}].run(request, retries=${line % 4})`,
    );
  return out.join('\n');
}

const WHOLE_FILE = moduleSource(999, 160);

const read = (step: number): CanonicalStep => ({
  calls: [{ id: `c${step}`, name: 'bash', args: { command: `cat src/service/module_${step}.py` } }],
  results: [{ text: moduleSource(step, 12), isError: false }],
});
const write: CanonicalStep = {
  text: 'Writing the generated routes in one go.',
  calls: [{ id: 'write', name: 'write_file', args: { path: WRITTEN_PATH, content: WHOLE_FILE } }],
  results: [{ text: `File created successfully at: ${WRITTEN_PATH}`, isError: false }],
};

const script = (steps: readonly CanonicalStep[]): CanonicalScript => ({
  system: 'You are a careful coding agent.',
  turns: [{ instruction: 'Generate the billing service routes, then check every module.', steps }],
});

/** Small reads until an epoch has sealed a second band, then the whole-file Write: the outcomes just before it and at it. */
function replay(
  dialect: Dialect,
  foldConfig?: { outputsPerWorkingSet?: number },
): { before: FoldOutcome; at: FoldOutcome } {
  const session = new FoldSession({ pressureCeiling: CEILING, countTokens, now: () => 0, foldConfig });
  const steps: CanonicalStep[] = [];
  for (let step = 0; step < 200; step++) {
    steps.push(read(step));
    const before = session.prepare(toDialect(script(steps), dialect));
    if (!before.stats.epochReason || before.stats.bands < 2) continue;
    return { before, at: session.prepare(toDialect(script([...steps, write]), dialect)) };
  }
  throw new Error('no second band sealed');
}

/** The Write call's arguments as the view shows them, in the dialect's own shape. */
function shownArguments(message: ProviderMessage, dialect: Dialect): Record<string, unknown> {
  const any = message as Record<string, any>;
  if (dialect === 'openai') return JSON.parse(any.tool_calls[0].function.arguments);
  if (dialect === 'openai-responses') return JSON.parse(any.arguments);
  if (dialect === 'anthropic') return any.content.find((block: any) => block.type === 'tool_use').input;
  if (dialect === 'ai-sdk') return any.content.find((part: any) => part.type === 'tool-call').input;
  return any.parts.find((part: any) => part.functionCall).functionCall.args;
}

describe.each(DIALECTS)('a whole-file Write in the live step (%s)', (dialect) => {
  it('is shown clipped, and one more band seals while the sealed ones stay byte for byte', () => {
    const { before, at } = replay(dialect);
    expect(countTokens(WHOLE_FILE)).toBeGreaterThan(0.5 * CEILING);
    expect(at.stats.epochReason).toBeDefined();
    expect(at.stats.merged).toBeUndefined();
    expect(at.stats.bands).toBe(before.stats.bands + 1);
    const sealed = before.sealedBoundary! + 1;
    expect(JSON.stringify(at.messages.slice(0, sealed))).toBe(JSON.stringify(before.messages.slice(0, sealed)));
    expect(viewTokens(at.messages, countTokens)).toBeLessThanOrEqual(CEILING);

    const shown = at.messages.find((message) => callsOf(message, dialect).some((call) => call.name === 'write_file'));
    expect(shown).toBeDefined();
    const args = shownArguments(shown!, dialect);
    // the call keeps its shape: the same keys, the short path whole, the file's head kept and its cut marked
    expect(Object.keys(args)).toEqual(['path', 'content']);
    expect(args.path).toBe(WRITTEN_PATH);
    const content = String(args.content);
    expect(content.startsWith(WHOLE_FILE.slice(0, 200))).toBe(true);
    expect(content).toContain('[warpfold clipped');
    expect(countTokens(content)).toBeLessThanOrEqual(0.15 * CEILING);
    if (dialect === 'ai-sdk')
      for (const message of at.messages) expect(modelMessageSchema.safeParse(message).success).toBe(true);
  });
});

describe('a call the history has not gone past', () => {
  it('is never clipped: the live call the agent is waiting on stays whole', () => {
    const steps = Array.from({ length: 80 }, (_, step) => read(step));
    const pending: CanonicalStep = { calls: write.calls, results: [] };
    const history = toDialect(script([...steps, pending]), 'openai');
    const outcome = new FoldSession({ pressureCeiling: CEILING, countTokens, now: () => 0 }).prepare(history);
    expect(outcome.messages.at(-1)).toBe(history.at(-1));
  });
});

describe('clipText', () => {
  const names = (clipped: string): string[] => {
    const marker = clipped.match(/\[warpfold clipped \d+ chars, \d+ lines(?:; in the cut: ([^\]\n]*))?\]/);
    expect(marker).not.toBeNull();
    return marker![1] ? marker![1].split(' ') : [];
  };

  it('names the identifiers found only in the cut, none the kept ends hold, within a share of the length', () => {
    const maxChars = 2_000;
    const clipped = clipText(WHOLE_FILE, maxChars);
    const listed = names(clipped);
    expect(listed.length).toBeGreaterThan(0);
    const [head, rest] = clipped.split('\n[warpfold clipped ');
    const kept = head + rest.slice(rest.indexOf(']\n') + 2);
    for (const value of listed) {
      expect(WHOLE_FILE).toContain(value);
      expect(kept).not.toContain(value);
    }
    expect(listed.join(' ').length).toBeLessThanOrEqual(0.3 * maxChars);
    expect(clipped.length).toBeLessThan(maxChars + 100);
  });

  it('names nothing when the cut holds no identifier of its own', () => {
    const text = `${'alpha beta gamma '.repeat(200)}`;
    expect(names(clipText(text, 300))).toEqual([]);
  });
});
