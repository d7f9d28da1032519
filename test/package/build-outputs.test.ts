// Where builds write, and what a tarball's manifest says: the inspector has an output of its own (a
// library build empties dist/ without taking it down), and the packed package.json has no prepare.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import libraryConfig from '../../vite.config.ts';
import inspectorConfig from '../../vite.demo.config.ts';
import { REPO_ROOT } from '../helpers/fixtures.ts';

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  files: string[];
  bin: Record<string, string>;
  scripts: Record<string, string>;
};

describe('build outputs', () => {
  it('builds the inspector outside dist/, which the library build empties', () => {
    expect(libraryConfig.build?.outDir).toBe('dist');
    expect(libraryConfig.build?.emptyOutDir).toBe(true);
    const inspector = relative(REPO_ROOT, inspectorConfig.build!.outDir!);
    expect(inspector).toBe('dist-inspector');
    expect(inspector.startsWith('dist/')).toBe(false);
    // npm start serves a build of its own, which npm test and npm pack never rebuild
    expect(manifest.scripts.start).toMatch(/--outDir \.inspector\b.*vite preview .*--outDir \.inspector\b/);
    for (const script of ['build', 'size', 'test']) expect(manifest.scripts[script]).not.toContain('.inspector');
    // the package ships the inspector that `warpfold inspect` serves, and the bin
    expect(manifest.files).toEqual(expect.arrayContaining(['dist', 'dist-inspector']));
    expect(manifest.bin).toEqual({ warpfold: './dist/cli.js' });
  });

  it('packs a package.json without prepare, and puts the original back after', () => {
    const folder = mkdtempSync(join(tmpdir(), 'warpfold-manifest-'));
    try {
      copyFileSync(join(REPO_ROOT, 'package.json'), join(folder, 'package.json'));
      const original = readFileSync(join(folder, 'package.json'), 'utf8');
      const script = join(REPO_ROOT, 'scripts/pack-manifest.mjs');
      execFileSync(process.execPath, [script, 'strip'], { cwd: folder });
      const packed = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as typeof manifest;
      expect(packed.scripts.prepare).toBeUndefined();
      expect(packed.bin).toEqual(manifest.bin);
      expect({ ...packed, scripts: undefined }).toEqual({ ...manifest, scripts: undefined });
      // a second strip (a pack that failed before postpack) still starts from the original
      execFileSync(process.execPath, [script, 'strip'], { cwd: folder });
      execFileSync(process.execPath, [script, 'restore'], { cwd: folder });
      expect(readFileSync(join(folder, 'package.json'), 'utf8')).toBe(original);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
