/**
 * Launch options for Debian's Chromium, shared by Playwright e2e tests and vitest browser mode.
 * Nothing is downloaded: the browser comes from `apt-get install chromium` (see .ci/run).
 */
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-quic',
    '--no-first-run',
    // Without this Chromium still looks up Google's account and update hosts at every start.
    '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1 , EXCLUDE localhost',
  ],
};
