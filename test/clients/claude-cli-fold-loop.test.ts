import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ClaudeCliFoldLoop } from '../../src/node/index.ts';
import { FINAL_ANSWER_PREFIX, startScriptedProvider } from '../helpers/scripted-provider/index.ts';
import { clientBin, makeSandbox, type Sandbox, TEST_API_KEY } from './agent-runs.ts';

const sandboxes: Sandbox[] = [];
afterEach(() => {
  for (const sandbox of sandboxes.splice(0)) sandbox.remove();
});

describe('ClaudeCliFoldLoop against the real Claude Code binary', () => {
  it('folds the session file once the provider reports the budget, and the resumed CLI sends the folded history', async () => {
    // four real tool calls a turn, so a few turns carry the measured input past the budget
    const provider = await startScriptedProvider({ turnSteps: 4 });
    const sandbox = makeSandbox();
    sandboxes.push(sandbox);
    const loop = new ClaudeCliFoldLoop({
      executable: clientBin('claude'),
      cwd: sandbox.work,
      claudeHome: join(sandbox.home, '.claude'),
      foldAtTokens: 45_000,
      extraArgs: ['--dangerously-skip-permissions'],
      env: {
        PATH: process.env.PATH,
        HOME: sandbox.home,
        LANG: 'C.UTF-8',
        ANTHROPIC_BASE_URL: provider.url,
        ANTHROPIC_API_KEY: TEST_API_KEY,
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        IS_SANDBOX: '1',
      },
    });
    const foldsAtRequest: number[] = [];
    const started = Date.now();
    try {
      for (let turn = 0; turn < 6; turn++) {
        const result = await loop.send(`turn ${turn}: go on with the scripted inspection`);
        expect(result.isError, result.result).toBe(false);
        expect(result.result).toContain(FINAL_ANSWER_PREFIX);
        if (result.fold !== null) foldsAtRequest.push(provider.requests.length);
      }
    } finally {
      await loop.close();
      await provider.close();
    }
    console.log(
      `[clients] claude fold-loop ${JSON.stringify({ wallMs: Date.now() - started, requests: provider.requests.length, folds: loop.folds.length, foldsAtRequest })}`,
    );
    expect(loop.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(loop.folds.length).toBeGreaterThanOrEqual(1);
    const at = foldsAtRequest[0];
    expect(at).toBeLessThan(provider.requests.length);
    // the CLI resumed on the folded file: its next call carries the fold and is smaller than the last one before it
    const before = provider.requests[at - 1];
    const after = provider.requests[at];
    expect(after.text).toContain('[warpfold fold');
    expect(before.text).not.toContain('[warpfold fold');
    expect(after.rawBody.length).toBeLessThan(before.rawBody.length);
    // the script went on where it stood: every step once, in order, across the fold
    const steps = provider.requests
      .filter((request) => request.exchange?.kind === 'tool-call')
      .map((r) => r.exchange!.step);
    expect(steps).toEqual(steps.map((_, index) => index));
    expect(steps.length).toBe(24);
  });
});
