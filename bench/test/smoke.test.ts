import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CorpusMissingError, repoRelative, resolveCorpus, BUNDLED_CORPUS, REPO_ROOT } from '../cli/paths.ts';
import { runBench } from '../run.ts';

describe('npm run bench -- --smoke', () => {
  const out = mkdtempSync(join(tmpdir(), 'warpfold-smoke-test-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('writes the four reports with the expected shape, from the bundled sessions', async () => {
    const printed: string[] = [];
    const run = await runBench({ smoke: true, out, print: (text) => printed.push(text), log: () => {} });
    for (const name of ['replay', 'scenario', 'scale', 'dialects']) {
      expect(existsSync(join(out, `${name}.json`))).toBe(true);
      expect(readFileSync(join(out, `${name}.md`), 'utf8')).toMatch(/^# /);
    }

    const replay = JSON.parse(readFileSync(join(out, 'replay.json'), 'utf8'));
    expect(replay.kind).toBe('replay');
    expect(replay.corpus).toBe('test/fixtures/sessions');
    expect(replay.files).toEqual(['msa-ds-chat-test-django__django-10914.json']);
    expect(replay.ceilings.map((entry: { ceiling: number }) => entry.ceiling)).toEqual([8000]);
    const summary = replay.ceilings[0].summary;
    for (const name of ['raw', 'truncate', 'mask', 'clear', 'sawtooth', 'sawtooth-lines', 'summarize', 'warpfold']) {
      expect(summary[name]).toMatchObject({
        calls: 48,
        cost: expect.any(Number),
        cachePercent: expect.any(Number),
        overCeilingCalls: expect.any(Number),
      });
    }
    expect(summary.raw.costVsRaw).toBe(1);
    expect(summary.raw.retentionPercent).toBe(100);
    expect(summary.summarize.extraCalls).toBeGreaterThan(0);
    expect(summary.warpfold.overCeilingCalls).toBe(0);
    expect(replay.skipped).toEqual([]);
    expect(readFileSync(join(out, 'replay.md'), 'utf8')).not.toContain(REPO_ROOT);

    expect(
      run.scenario!.runs.every((entry) => entry.dialect === 'openai' && entry.ceiling === 8000 && entry.calls === 16),
    ).toBe(true);
    expect(run.scale!.rows.map((row) => row.turns)).toEqual(expect.arrayContaining([20, 100]));
    expect(Object.keys(run.reports)).toEqual(['replay', 'scenario', 'scale', 'storage', 'dialects']);
    const dialects = JSON.parse(readFileSync(join(out, 'dialects.json'), 'utf8'));
    expect(dialects.files).toEqual(['msa-ds-chat-test-django__django-10914.json']);
    expect(Object.keys(dialects.ceilings[0].rows)).toEqual(['openai', 'openai-responses', 'ai-sdk']);
    expect(readFileSync(join(out, 'dialects.md'), 'utf8')).not.toContain(REPO_ROOT);
    expect(printed.join('\n')).toContain('## Session replay (1 sessions from test/fixtures/sessions)');
  });
});

describe('bench arguments', () => {
  it('replays the bundled sessions unless told otherwise, and names paths relative to the repository', () => {
    expect(resolveCorpus()).toBe(BUNDLED_CORPUS);
    expect(repoRelative(BUNDLED_CORPUS)).toBe('test/fixtures/sessions');
    expect(repoRelative(join(REPO_ROOT, '../shared/corpus/dev'))).toBe('../shared/corpus/dev');
  });

  it('reports a missing corpus as a typed error naming the folder', () => {
    expect(() => resolveCorpus({ corpus: join(tmpdir(), 'warpfold-no-such-corpus') })).toThrow(CorpusMissingError);
    expect(() => resolveCorpus({ corpus: join(tmpdir(), 'warpfold-no-such-corpus') })).toThrow(
      /no corpus folder at .*warpfold-no-such-corpus/,
    );
  });

  it('prints a missing corpus as one line and exits 1, without a stack trace', () => {
    let failure: { status: number; stderr: string; stdout: string } | undefined;
    try {
      execFileSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--corpus', 'no/such/folder'], {
        cwd: REPO_ROOT,
        stdio: 'pipe',
        encoding: 'utf8',
      });
    } catch (error) {
      failure = error as { status: number; stderr: string; stdout: string };
    }
    expect(failure?.status).toBe(1);
    expect(failure!.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^bench: no corpus folder at no\/such\/folder \(/),
    ]);
    expect(failure!.stdout).toBe('');
  });

  it('refuses unknown parts and --update with --smoke', async () => {
    await expect(runBench({ parts: ['nope'], log: () => {}, print: () => {} })).rejects.toThrow(
      /unknown part nope \(parts: replay, scenario, scale, storage, dialects\)/,
    );
    await expect(runBench({ smoke: true, update: true, log: () => {}, print: () => {} })).rejects.toThrow(
      /cannot be combined with --smoke/,
    );
  });
});
