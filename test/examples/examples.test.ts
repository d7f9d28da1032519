// The examples run as a user would run them: through tsx, importing the built package by its own
// name (`warpfold`, resolved through the exports map to dist/), from the bundled sessions only.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/fixtures.ts';

const run = (file: string, ...args: string[]): string =>
  execFileSync(process.execPath, ['--import', 'tsx', join('examples', file), ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    stdio: 'pipe',
  });

describe('examples', () => {
  it('import only the package by name, never its sources (a sibling helper of the examples is part of them)', () => {
    const files = readdirSync(join(REPO_ROOT, 'examples')).filter((name) => name.endsWith('.ts'));
    const specifiersOf = new Map(
      files.map((file) => [
        file,
        [...readFileSync(join(REPO_ROOT, 'examples', file), 'utf8').matchAll(/from '([^']+)'/g)].map(
          (match) => match[1],
        ),
      ]),
    );
    const helpers = new Set([...specifiersOf.values()].flat().filter((specifier) => specifier.startsWith('.')));
    for (const helper of helpers) {
      expect(helper).toMatch(/^\.\/[\w-]+\.ts$/);
      expect(files).toContain(helper.slice(2));
    }
    for (const [file, specifiers] of specifiersOf)
      if (!helpers.has(`./${file}`))
        expect(
          specifiers.some((specifier) => specifier === 'warpfold' || specifier.startsWith('warpfold/')),
          file,
        ).toBe(true);
  });

  it('full-memory-loop replays a bundled session with recall and episodes', () => {
    const output = run('full-memory-loop.ts');
    expect(output).toMatch(/^warpfold full memory loop · msa-ds-chat-test-django__django-12589\.json · 258 messages/);
    const [, calls, epochs, cards] = output.match(/\n(\d+) calls · (\d+) epochs · (\d+) recall cards\n/)!.map(Number);
    expect(calls).toBe(129);
    expect(epochs).toBeGreaterThan(10);
    expect(cards).toBeGreaterThan(0);
    expect(output).toContain('first card, as it appears in the view:');
    expect(output).toMatch(/episodes: \d+ recorded/);
    expect(output).toMatch(/episode cards for \d+ changed files of the last turn/);
  });

  it('full-memory-loop reads a session given on the command line', () => {
    const output = run('full-memory-loop.ts', 'test/fixtures/sessions/tau-airline-gpt-4o-task02-trial1.json');
    expect(output).toMatch(/^warpfold full memory loop · tau-airline-gpt-4o-task02-trial1\.json · 62 messages/);
  });

  it('task-rail walks a rail through its transitions and restores it', () => {
    const output = run('task-rail.ts');
    expect(output.length).toBeGreaterThan(200);
    expect(output).toContain('Task rail: Ship the feature {rail-ship-feature} · 1/3 resolved');
    expect(output).toMatch(/saved \d+ chars of JSON/);
    expect(output).toContain('restore rejected: invalid-serialized-rail');
  });
});
