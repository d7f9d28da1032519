// The cross-runtime golden replay in Deno (`npm run test:deno`, offline, no jsr: or remote
// imports): the same replay as test/runtimes/replay-digests.test.ts, against the same digest file.
import { checkRuntime, EXPECTED } from '../runtimes/check-runtime.ts';

function assertEqual<T>(actual: T, expected: T, what: string): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected))
    throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

Deno.test('cross-runtime golden replay: Deno replays every fixture session to the recorded digest of every view', () => {
  assertEqual(typeof Deno.version.deno, 'string', 'running in Deno');
  const check = checkRuntime();
  assertEqual(check.differences, [], 'differences from test/runtimes/expected-digests.json');
  assertEqual(check.total, EXPECTED.total, 'total digest');
  assertEqual(check.underFolded, [], 'sessions that folded too rarely');
});
