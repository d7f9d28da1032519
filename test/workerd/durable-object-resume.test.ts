/**
 * Resume acceptance in workerd: a Durable Object holding a FoldSession is restarted between calls
 * (`abortAllDurableObjects` drops every instance, keeping storage); each new instance restores the
 * session from its SQLite storage, and the views stay byte-identical to an uninterrupted run.
 */
import { env } from 'cloudflare:workers';
import { abortAllDurableObjects } from 'cloudflare:test';
import { it, expect } from 'vitest';
import type { ProviderMessage } from '../../src/index.ts';
import fixture from '../saved-state/fixtures/sweagent-gpt4-pydicom__pydicom-1458.json';
import { uninterruptedRun } from '../storage/resume-driver.ts';

const history = (fixture as unknown as { messages: ProviderMessage[] }).messages;
/** After call 7 the session has sealed bands and more epochs follow. */
const SPLIT = 7;

it('a Durable Object restarted between calls resumes its FoldSession with byte-identical views', async () => {
  const expected = await uninterruptedRun(history);
  expect(expected).toHaveLength(13);
  expect(expected[SPLIT - 1].bands).toBeGreaterThan(0);

  const name = crypto.randomUUID();
  const stub = () => env.FOLD_SESSION_OBJECT.getByName(name);
  const first = [];
  for (let call = 0; call < SPLIT; call++) first.push(await stub().call(history, call));
  expect(new Set(first.map((result) => result.instance)).size).toBe(1);
  expect(first.map((result) => result.restoredFromStorage)).toEqual(first.map(() => false));
  expect(first.map(({ instance: _instance, restoredFromStorage: _restored, ...result }) => result)).toEqual(
    expected.slice(0, SPLIT),
  );

  const instances = new Set([first[0].instance]);
  for (let call = SPLIT; call < expected.length; call++) {
    await abortAllDurableObjects();
    const { instance, restoredFromStorage, ...result } = await stub().call(history, call);
    expect(restoredFromStorage).toBe(true);
    expect(instances.has(instance)).toBe(false);
    instances.add(instance);
    expect(result).toEqual(expected[call]);
  }
});
