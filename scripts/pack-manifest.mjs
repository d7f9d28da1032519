// The package.json a tarball carries, without `prepare`: the tarball already holds dist/, and npm
// flags any tarball dependency with a `prepare` script as an install script not covered by the
// installing project's `allowScripts`. A git install still runs `prepare` (it needs the build).
//
//   node scripts/pack-manifest.mjs strip     (prepack: after the build)
//   node scripts/pack-manifest.mjs restore   (postpack)
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const MANIFEST = 'package.json';
const BACKUP = 'package.json.before-pack';

const action = process.argv[2];
if (action === 'strip') {
  // a pack that failed before its postpack left the backup: it is the original
  if (existsSync(BACKUP)) renameSync(BACKUP, MANIFEST);
  const text = readFileSync(MANIFEST, 'utf8');
  const manifest = JSON.parse(text);
  writeFileSync(BACKUP, text);
  delete manifest.scripts.prepare;
  writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
} else if (action === 'restore') {
  if (existsSync(BACKUP)) renameSync(BACKUP, MANIFEST);
} else {
  console.error('usage: node scripts/pack-manifest.mjs strip|restore');
  process.exitCode = 2;
}
