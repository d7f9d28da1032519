import { describe, expect, it } from 'vitest';
import { runStorageBench, storageTable } from '../storage.ts';
import { benchEpisodes, benchRecallPaths } from '../storage/workload.ts';

describe('storage bench', () => {
  it('generates the same workload every time', () => {
    expect(benchEpisodes(50)).toEqual(benchEpisodes(50));
    expect(benchRecallPaths(20)).toEqual(benchRecallPaths(20));
    expect(
      new Set(benchEpisodes(2_000).flatMap((episode) => episode.files.map((file) => file.path))).size,
    ).toBeGreaterThan(500);
  });

  it('a smoke run measures the Node backends, and recall finds the same episodes in each', async () => {
    const report = await runStorageBench({ smoke: true, backends: ['memory', 'fake-indexeddb'], log: () => {} });
    expect(report.failures).toEqual([]);
    expect(report.rows.map((row) => row.backend)).toEqual(['memory', 'fake-indexeddb']);
    for (const row of report.rows) {
      expect(row.recordPerSecond).toBeGreaterThan(0);
      expect(row.recallPerSecond).toBeGreaterThan(0);
      expect(row.session.bytes).toBeGreaterThan(1_000);
      expect(row.sessionWithHistory.bytes).toBeGreaterThan(row.session.bytes);
    }
    expect(report.rows[0].recallHits).toBeGreaterThan(0);
    expect(report.rows[1].recallHits).toBe(report.rows[0].recallHits);
    expect(storageTable(report)).toContain('| memory | Node |');
  });
});
