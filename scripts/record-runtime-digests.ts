// Writes the synthetic sessions of the cross-runtime replay (test/fixtures/synthetic/) and the
// digests every runtime must reproduce (test/runtimes/expected-digests.json). Run it when a change
// to the engine's output is intended, then review the diff:
//
//   npx tsx scripts/record-runtime-digests.ts
//
// The synthetic sessions come from the outage scenario and a long seeded marathon, each written in
// the OpenAI, Anthropic and Gemini dialects, and a marathon long enough to merge past the re-read
// bound (OpenAI only: the bound works on canonical messages, the same in every dialect).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { transcriptFor } from '../test/helpers/workloads/dialect-transcript.ts';
import { OUTAGE_SCRIPT } from '../test/helpers/workloads/outage-script.ts';
import { toDialect } from '../test/helpers/dialects.ts';

const CHAT_DIALECTS = ['openai', 'anthropic', 'gemini'] as const;
import { REPO_ROOT } from '../test/helpers/fixtures.ts';
import { inHouseFormat } from '../test/helpers/house-format.ts';
import { marathonScript } from '../test/helpers/scripts.ts';

const SYNTHETIC_DIR = join(REPO_ROOT, 'test/fixtures/synthetic');
const DIGEST_FILE = join(REPO_ROOT, 'test/runtimes/expected-digests.json');

mkdirSync(SYNTHETIC_DIR, { recursive: true });
const marathon = marathonScript(70, 15, 6);
// the three chat dialects: the outage transcript is written only in those (the Responses and AI SDK dialects have their own property and client tests)
for (const dialect of CHAT_DIALECTS) {
  const files = {
    [`outage-${dialect}`]: {
      id: `outage-${dialect}`,
      source: 'warpfold bench/scenario (outage investigation script)',
      license: 'MIT',
      dialect,
      messages: transcriptFor(OUTAGE_SCRIPT, dialect).messages,
    },
    [`marathon-${dialect}`]: {
      id: `marathon-${dialect}`,
      source: 'warpfold test/helpers/scripts.ts marathonScript(70, 15, 6)',
      license: 'MIT',
      dialect,
      messages: toDialect(marathon, dialect),
    },
  };
  for (const [name, content] of Object.entries(files)) {
    const path = join(SYNTHETIC_DIR, `${name}.json`);
    writeFileSync(path, JSON.stringify(content, null, 1) + '\n');
    console.log(`${relative(REPO_ROOT, path)}: ${content.messages.length} messages`);
  }
}

// long enough that late merges re-read only the newest bands and re-fold older ones from their lines
const longMarathon = {
  id: 'marathon-long-openai',
  source: 'warpfold test/helpers/scripts.ts marathonScript(260, 21, 6)',
  license: 'MIT',
  dialect: 'openai',
  messages: toDialect(marathonScript(260, 21, 6), 'openai'),
};
writeFileSync(join(SYNTHETIC_DIR, `${longMarathon.id}.json`), JSON.stringify(longMarathon, null, 1) + '\n');
console.log(`test/fixtures/synthetic/${longMarathon.id}.json: ${longMarathon.messages.length} messages`);

// Imported after the synthetic files exist: sessions.ts imports them.
const { REPLAY_SESSIONS } = await import('../test/runtimes/sessions.ts');
const { digestFile, replayAll } = await import('../test/runtimes/runtime-replay.ts');
const file = digestFile(replayAll(REPLAY_SESSIONS));
const ids = Object.keys(file.sessions);
writeFileSync(DIGEST_FILE, inHouseFormat(JSON.stringify(file), DIGEST_FILE));
for (const id of ids)
  console.log(
    `${id}: ${Object.entries(file.sessions[id])
      .map(([ceiling, value]) => `${ceiling}: ${value.views.length} calls, ${value.epochs} epochs`)
      .join('; ')}`,
  );
console.log(`${relative(REPO_ROOT, DIGEST_FILE)}: total ${file.total}`);
