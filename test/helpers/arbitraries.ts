/**
 * fast-check arbitraries for realistic agent histories. One canonical script is generated
 * (structure and per-step seeds by fast-check, bulk text by a seeded PRNG) and rendered into
 * any of the five dialects with `toDialect`.
 */
import fc from 'fast-check';
import {
  alnum,
  makeArguments,
  makeInstruction,
  makeRandom,
  makeResult,
  makeSystemPrompt,
  paragraph,
  sentence,
  TOOL_NAMES,
  FILE_WRITE,
  type CanonicalCall,
  type CanonicalResult,
  type CanonicalScript,
  type CanonicalStep,
  type CanonicalTurn,
  type ResultSize,
  type ToolName,
} from './canonical.ts';
import { DIALECTS, toDialect, type ConvertOptions, type Dialect, type ProviderMessage } from './dialects.ts';

export interface ScriptShape {
  readonly minTurns?: number;
  readonly maxTurns?: number;
  readonly maxStepsPerTurn?: number;
  /** Relative weight of a `huge` tool result (20k–60k chars) among result sizes; 0 for none. */
  readonly hugeWeight?: number;
  /** Relative weight of a `large` tool result (100–250 lines); default 2. */
  readonly largeWeight?: number;
  /** Allow the script to end on a step whose calls have no results yet. */
  readonly allowPending?: boolean;
}

type IdStyle = 'unique' | 'reused';

const resultSize = (hugeWeight: number, largeWeight: number): fc.Arbitrary<ResultSize> =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constant<ResultSize>('empty') },
    { weight: 10, arbitrary: fc.constant<ResultSize>('small') },
    { weight: 5, arbitrary: fc.constant<ResultSize>('medium') },
    ...(largeWeight > 0 ? [{ weight: largeWeight, arbitrary: fc.constant<ResultSize>('large') }] : []),
    ...(hugeWeight > 0 ? [{ weight: hugeWeight, arbitrary: fc.constant<ResultSize>('huge') }] : []),
  );

const callShape = (hugeWeight: number, largeWeight: number) =>
  fc.record({
    name: fc.constantFrom<ToolName>(...TOOL_NAMES, FILE_WRITE),
    size: resultSize(hugeWeight, largeWeight),
    isError: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  });

const stepShape = (hugeWeight: number, largeWeight: number) =>
  fc.record({
    seed: fc.integer(),
    calls: fc.oneof(
      { weight: 1, arbitrary: fc.constant([]) },
      { weight: 6, arbitrary: fc.array(callShape(hugeWeight, largeWeight), { minLength: 1, maxLength: 1 }) },
      { weight: 2, arbitrary: fc.array(callShape(hugeWeight, largeWeight), { minLength: 2, maxLength: 4 }) },
    ),
    text: fc.integer({ min: 0, max: 3 }),
    thinking: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
  });

const turnShape = (maxSteps: number, hugeWeight: number, largeWeight: number) =>
  fc.record({
    seed: fc.integer(),
    steps: fc.array(stepShape(hugeWeight, largeWeight), { minLength: 0, maxLength: maxSteps }),
    reply: fc.integer({ min: 0, max: 4 }).map((n) => n !== 0),
  });

/** Builds the script from the shapes fast-check picked. */
function buildScript(
  systemSeed: number,
  systemSentences: number,
  turns: ReadonlyArray<{
    seed: number;
    steps: ReadonlyArray<{
      seed: number;
      calls: ReadonlyArray<{ name: ToolName; size: ResultSize; isError: boolean }>;
      text: number;
      thinking: boolean;
    }>;
    reply: boolean;
  }>,
  idStyle: IdStyle,
  pendingAtEnd: boolean,
): CanonicalScript {
  let idCounter = 0;
  const outTurns: CanonicalTurn[] = [];
  turns.forEach((turn, t) => {
    const turnRandom = makeRandom(turn.seed);
    const steps: CanonicalStep[] = [];
    turn.steps.forEach((step, s) => {
      const random = makeRandom(step.seed);
      const calls: CanonicalCall[] = [];
      const results: CanonicalResult[] = [];
      step.calls.forEach((shape, n) => {
        const args = makeArguments(shape.name, random, shape.size);
        // tau-bench style reuses ids once their results came back; unique ids look like provider ids
        const id = idStyle === 'reused' ? String(n) : `${alnum(random, 20)}${idCounter++}`;
        calls.push({ id, name: shape.name, args });
        results.push(makeResult(shape.name, args, shape.size, shape.isError, random));
      });
      const isLast = t === turns.length - 1 && s === turn.steps.length - 1;
      const pending = pendingAtEnd && isLast && calls.length > 0;
      steps.push({
        ...(step.thinking ? { thinking: paragraph(random, 2) } : {}),
        ...(step.text > 0 || calls.length === 0 ? { text: paragraph(random, Math.max(1, step.text)) } : {}),
        calls,
        results: pending ? [] : results,
      });
    });
    const last = t === turns.length - 1;
    const endsPending =
      last &&
      pendingAtEnd &&
      steps.length > 0 &&
      steps[steps.length - 1].results.length === 0 &&
      steps[steps.length - 1].calls.length > 0;
    outTurns.push({
      instruction: makeInstruction(turnRandom),
      steps,
      ...(turn.reply && !endsPending ? { reply: `${sentence(turnRandom)} ${sentence(turnRandom)}` } : {}),
    });
  });
  return { system: makeSystemPrompt(makeRandom(systemSeed), systemSentences), turns: outTurns };
}

/** A canonical agent script: system prompt, several user turns, each with tool steps. */
export function arbitraryScript(shape: ScriptShape = {}): fc.Arbitrary<CanonicalScript> {
  const hugeWeight = shape.hugeWeight ?? 1;
  return fc
    .record({
      systemSeed: fc.integer(),
      systemSentences: fc.integer({ min: 1, max: 12 }),
      turns: fc.array(turnShape(shape.maxStepsPerTurn ?? 8, hugeWeight, shape.largeWeight ?? 2), {
        minLength: shape.minTurns ?? 1,
        maxLength: shape.maxTurns ?? 5,
      }),
      idStyle: fc.constantFrom<IdStyle>('unique', 'unique', 'reused'),
      pending: shape.allowPending === false ? fc.constant(false) : fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
    })
    .map(({ systemSeed, systemSentences, turns, idStyle, pending }) =>
      buildScript(systemSeed, systemSentences, turns, idStyle, pending),
    );
}

export const arbitraryDialect: fc.Arbitrary<Dialect> = fc.constantFrom(...DIALECTS);

export const arbitraryConvertOptions: fc.Arbitrary<ConvertOptions> = fc.record({
  geminiIds: fc.boolean(),
  anthropicStringContent: fc.boolean(),
  systemInHistory: fc.boolean(),
});

/** Options only the Responses and AI SDK converters read; drawn after the others so the older dialects' samples stay as they were. */
const arbitraryNewDialectOptions: fc.Arbitrary<ConvertOptions> = fc.record({
  responsesBuiltinTools: fc.boolean(),
  aiSdkOutput: fc.constantFrom<'text' | 'json' | 'content'>('text', 'json', 'content'),
});

export interface GeneratedHistory {
  readonly dialect: Dialect;
  readonly script: CanonicalScript;
  readonly options: ConvertOptions;
  readonly history: ProviderMessage[];
}

/** A provider-shaped history in a given (or any) dialect. */
export function arbitraryHistory(shape: ScriptShape = {}, dialect?: Dialect): fc.Arbitrary<GeneratedHistory> {
  return fc
    .record({
      dialect: dialect ? fc.constant(dialect) : arbitraryDialect,
      script: arbitraryScript(shape),
      options: arbitraryConvertOptions,
      ...(dialect === 'openai-responses' || dialect === 'ai-sdk'
        ? { newDialectOptions: arbitraryNewDialectOptions }
        : {}),
    })
    .map(({ dialect: chosen, script, options: base, newDialectOptions }) => {
      const options = { ...base, ...newDialectOptions };
      return { dialect: chosen, script, options, history: toDialect(script, chosen, options) };
    });
}
