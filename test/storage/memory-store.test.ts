import { describe, it, expect } from 'vitest';
import { createMemoryStore, memoryDriver } from '../../src/storage/memory.ts';
import { runDriverConformance } from './driver-conformance.ts';
import { runStorageConformance } from './storage-conformance.ts';

runStorageConformance('memory', {
  async create(options) {
    const records = new Map<string, string>();
    return {
      storage: createMemoryStore({ ...options, records }),
      async writeRaw(kind, id, text) {
        records.set(`${kind}/${id}`, text);
      },
    };
  },
});

describe('memory store', () => {
  it('holds JSON text only, and a second store over the same records reads and indexes them', async () => {
    const records = new Map<string, string>();
    const first = createMemoryStore({ records });
    await first.sessions.save('s1', { calls: 1 });
    await first.episodes.put([{ id: 'ep-1', sessionId: 's', request: '', files: [{ path: 'src/a.ts', how: 'read' }], conclusions: [], outcome: 'open', span: { startIndex: 0, endIndex: 1 } }]);
    expect([...records.values()].every((value) => typeof value === 'string')).toBe(true);
    const second = createMemoryStore({ records });
    expect((await second.episodes.findByPaths(['a.ts'])).map((episode) => episode.id)).toEqual(['ep-1']);
    expect(await second.sessions.load('s1')).toEqual({ id: 's1', version: 1, state: { calls: 1 } });
  });

  it('warns by default when it skips a corrupt record', async () => {
    const records = new Map<string, string>([['session/s1', '{']]);
    const warnings: unknown[] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args.join(' '));
    try {
      expect(await createMemoryStore({ records }).sessions.load('s1')).toBeUndefined();
    } finally {
      console.warn = original;
    }
    expect(warnings).toHaveLength(1);
    expect(String(warnings[0])).toContain('session/s1');
  });
});

runDriverConformance('memory', async () => memoryDriver());
