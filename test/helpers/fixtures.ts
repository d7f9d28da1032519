/**
 * Real agent sessions shipped with the repository (test/fixtures/sessions, MIT; see the README
 * there), so the tests that need real sessions run from a bare clone with nothing beside it.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const FIXTURE_SESSIONS_DIR = join(REPO_ROOT, 'test/fixtures/sessions');

/** A fixture session as recorded in the corpus: provenance fields plus OpenAI-shaped messages. */
export interface FixtureSession<Message = Record<string, unknown>> {
  readonly id: string;
  readonly source: string;
  readonly license: string;
  readonly messages: Message[];
}

export function fixturePath(id: string): string {
  return join(FIXTURE_SESSIONS_DIR, id.endsWith('.json') ? id : `${id}.json`);
}

export function readFixture<Message = Record<string, unknown>>(id: string): FixtureSession<Message> {
  return JSON.parse(readFileSync(fixturePath(id), 'utf8')) as FixtureSession<Message>;
}
