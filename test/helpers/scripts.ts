/** Hand-shaped canonical scripts for scenario tests (deterministic, no fast-check). */
import {
  makeArguments,
  makeInstruction,
  makeRandom,
  makeResult,
  makeSystemPrompt,
  pick,
  sentence,
  TOOL_NAMES,
  type CanonicalScript,
  type CanonicalStep,
  type ResultSize,
} from './canonical.ts';

/**
 * One instruction, then `steps` tool steps and no reply: an agent working a long task alone.
 * Results are small or medium (`largeEvery` > 0 makes every n-th one large).
 */
export function marathonScript(steps: number, seed = 1, largeEvery = 0): CanonicalScript {
  const random = makeRandom(seed);
  const out: CanonicalStep[] = [];
  for (let i = 0; i < steps; i++) {
    const name = pick(random, TOOL_NAMES);
    const args = makeArguments(name, random);
    const size: ResultSize =
      largeEvery > 0 && i % largeEvery === largeEvery - 1 ? 'large' : random() < 0.7 ? 'small' : 'medium';
    out.push({
      ...(random() < 0.4 ? { text: sentence(random) } : {}),
      calls: [{ id: `m${i}`, name, args }],
      results: [makeResult(name, args, size, random() < 0.05, random)],
    });
  }
  return {
    system: makeSystemPrompt(random, 4),
    turns: [{ instruction: `Marathon task: ${makeInstruction(random).split('\n')[0]}`, steps: out }],
  };
}
