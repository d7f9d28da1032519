// prepack: build unless dist/ and dist-inspector/ are already newer than every source file.
// `npm ci` runs `prepare` (the build); `npm pack` right after it would otherwise build again.
//
//   node scripts/build-if-stale.mjs
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const OUTPUTS = ['dist/cli.js', 'dist/index.js', 'dist/types/index.d.ts', 'dist-inspector/index.html'];
const INPUTS = ['src', 'demo', 'package.json', 'tsconfig.build.json', 'tsconfig.build.node.json'];
const CONFIGS = /^vite\..*config\.ts$/;

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

const inputs = [...INPUTS, ...readdirSync('.').filter((name) => CONFIGS.test(name))];
const sources = Math.max(...inputs.map(newest));
const built = OUTPUTS.every(existsSync) ? Math.min(...OUTPUTS.map((path) => statSync(path).mtimeMs)) : 0;
if (built > sources) console.log('dist/ is newer than every source: not building again');
else execSync('npm run build', { stdio: 'inherit' });
