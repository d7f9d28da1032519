// Installs the real agent clients the client tests drive, pinned, into .cache/clients/<name>@<version>.
// They are never dependencies of the package and never committed: Claude Code's licence allows use,
// not redistribution. A folder that already holds its client is reused, so a second run is instant.
//
//   node scripts/install-clients.mjs            install what is missing, print the bin paths as JSON
//   node scripts/install-clients.mjs --check    exit 1 when a client is missing, install nothing
//
// The cache is .cache/clients unless WARPFOLD_CLIENTS_CACHE names another folder.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The versions observed in ../shared/CLIENTS.md; test/clients/client-bins.ts reads the same list. */
export const CLIENTS = JSON.parse(readFileSync(new URL('./clients.json', import.meta.url), 'utf8'));

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** WARPFOLD_CLIENTS_CACHE moves the cache out of the checkout, so fresh clones on one machine share it. */
export const CACHE = process.env.WARPFOLD_CLIENTS_CACHE
  ? resolve(process.env.WARPFOLD_CLIENTS_CACHE)
  : join(root, '.cache', 'clients');

/** The folder a client lives in, and its executable. */
export const clientFolder = (client) => join(CACHE, `${client.name}@${client.version}`);
export const clientBin = (client) => join(clientFolder(client), 'node_modules', '.bin', client.bin);

const installedVersion = (client) => {
  const manifest = join(clientFolder(client), 'node_modules', ...client.pkg.split('/'), 'package.json');
  return existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : undefined;
};

const install = (client) => {
  const folder = clientFolder(client);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  // a private manifest of its own, so npm never walks up into the project's package.json
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify({ private: true, name: `client-${client.name}` })}\n`);
  const started = Date.now();
  execFileSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error', `${client.pkg}@${client.version}`],
    { cwd: folder, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  console.error(`installed ${client.pkg}@${client.version} in ${seconds} s`);
};

const main = () => {
  const check = process.argv.includes('--check');
  let missing = 0;
  for (const client of CLIENTS) {
    const ready = installedVersion(client) === client.version && existsSync(clientBin(client));
    if (ready) continue;
    if (check) {
      console.error(`missing ${client.pkg}@${client.version}`);
      missing++;
      continue;
    }
    install(client);
    if (installedVersion(client) !== client.version || !existsSync(clientBin(client)))
      throw new Error(`install of ${client.pkg}@${client.version} left no ${client.bin} in ${clientFolder(client)}`);
  }
  if (missing > 0) process.exitCode = 1;
  else console.log(JSON.stringify(Object.fromEntries(CLIENTS.map((client) => [client.name, clientBin(client)]))));
};

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
