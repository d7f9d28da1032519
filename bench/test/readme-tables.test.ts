import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { benchSection, END_MARKER, replaceSection, START_MARKER } from '../readme-tables.ts';
import { runScale } from '../scale.ts';
import { runScenario } from '../scenario.ts';

describe('README benchmark section', () => {
  const results = mkdtempSync(join(tmpdir(), 'warpfold-readme-'));
  afterAll(() => rmSync(results, { recursive: true, force: true }));

  it('replaces only the text between the markers', () => {
    const readme = `# x\n\nintro\n${START_MARKER}\nold\n${END_MARKER}\n\nafter\n`;
    const next = replaceSection(readme, 'new table');
    expect(next).toBe(`# x\n\nintro\n${START_MARKER}\nnew table\n${END_MARKER}\n\nafter\n`);
    expect(replaceSection(next, 'new table')).toBe(next);
  });

  it('refuses a README without markers', () => {
    expect(() => replaceSection('# nothing here', 'x')).toThrow(/bench:start/);
  });

  it('builds the section from results files', async () => {
    writeFileSync(
      join(results, 'scenario.json'),
      JSON.stringify(await runScenario({ ceilings: [8000], dialects: ['openai'], strategies: ['raw', 'truncate'] })),
    );
    writeFileSync(
      join(results, 'scale.json'),
      JSON.stringify(await runScale({ turns: [5], strategies: ['truncate'] })),
    );
    const section = benchSection(results);
    expect(section).toContain('### Outage scenario');
    expect(section).toContain('| 8,000 | truncate |');
    expect(section).toContain('### Scale');
    expect(section).not.toContain('### Real sessions');
  });
});
