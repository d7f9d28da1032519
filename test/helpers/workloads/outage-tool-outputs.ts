// Deterministic tool output for the outage scenario: realistic noise (log lines, code, spans,
// decoy UUIDs, pods and hashes of the same shapes) with each vital fact on one chosen line.
import { noiseSource, type NoiseSource } from './seeded-random.ts';

const PODS_PREFIX = 'checkout-api-7d9f8b6c5-';
const ROUTES = [
  'POST /v1/checkout',
  'POST /v1/checkout/confirm',
  'GET /v1/cart',
  'POST /v1/payments/authorize',
  'GET /v1/orders',
];
const UPSTREAM_ERRORS = [
  'upstream connect error',
  'context deadline exceeded',
  'pool acquire timeout after 30000ms',
  'connection reset by peer',
];

function timestamp(noise: NoiseSource, minute: number): string {
  return `2026-11-28T14:${String(minute).padStart(2, '0')}:${String(noise.integer(60)).padStart(2, '0')}.${String(noise.integer(1000)).padStart(3, '0')}Z`;
}

/** `count` lines from `line`, with `facts` spliced in at fractional positions (0 = top, 1 = bottom). */
function withFacts(count: number, line: (index: number) => string, facts: ReadonlyArray<[number, string]>): string {
  const lines = Array.from({ length: count }, (_, index) => line(index));
  const sorted = [...facts].sort((first, second) => second[0] - first[0]);
  for (const [position, fact] of sorted) lines.splice(Math.round(position * count), 0, fact);
  return lines.join('\n');
}

function accessLine(noise: NoiseSource, minute: number): string {
  const status = noise.pick([503, 503, 503, 500, 504]);
  return `${timestamp(noise, minute)} ERROR checkout-api pod=${PODS_PREFIX}${noise.podSuffix()} req=${noise.uuid()} route="${noise.pick(ROUTES)}" status=${status} latency_ms=${1000 + noise.integer(29000)} msg="${noise.pick(UPSTREAM_ERRORS)}"`;
}

export function alertLogs(): string {
  const noise = noiseSource(101);
  const header = [
    '# alert INC-2291 fired 2026-11-28T14:05:00Z: checkout-api 5xx rate 31.4% (threshold 2%) for 5m',
    '# query: service=checkout-api status>=500 since=30m  (showing 90 of 1,377 matches, newest last)',
  ].join('\n');
  const body = withFacts(90, (index) => accessLine(noise, 5 + Math.floor(index / 4)), [
    [
      1,
      '# top pods by 5xx: checkout-api-7d9f8b6c5-x2k4p 412 · ' +
        Array.from({ length: 5 }, () => `${PODS_PREFIX}${noise.podSuffix()} ${150 + noise.integer(100)}`).join(' · '),
    ],
  ]);
  return `${header}\n${body}`;
}

export function rolloutHistory(): string {
  const noise = noiseSource(202);
  const rows = Array.from({ length: 22 }, (_, index) => {
    const minor = 38 + Math.floor(index / 6);
    const patch = index % 6;
    return `${20 + index}        registry.acme.io/checkout-api:v2.${minor}.${patch}-rc${noise.integer(3)}   commit ${noise.hex(40)}   deploy ${noise.integer(28) + 1}/11 by ci-bot`;
  });
  rows.push(
    '41        registry.acme.io/checkout-api:v2.41.2   commit 5d0c2b9e71a4f3c8d6e2b1a0f9e8d7c6b5a49382   deploy 27/11 09:12 by ci-bot',
  );
  rows.push(
    '42        registry.acme.io/checkout-api:v2.41.3   commit a3f97c21d8e4b5f60718293a4b5c6d7e8f901234   deploy 28/11 14:02 by ci-bot (current)',
  );
  const describe = Array.from({ length: 30 }, (_, index) =>
    index % 3 === 0
      ? `  Normal  ScalingReplicaSet  ${noise.integer(50) + 2}m  deployment-controller  Scaled ${noise.pick(['up', 'down'])} replica set checkout-api-${noise.hex(9)} to ${noise.integer(7)}`
      : `  ${noise.pick(['Labels', 'Annotations', 'Selector', 'Environment', 'Mounts'])}: ${noise.pick(['app=checkout-api', 'tier=backend', 'team=payments', 'POOL_CONFIG from configmap checkout-pool', '/etc/checkout from config (ro)'])}`,
  );
  return [
    'deployment.apps/checkout-api',
    'REVISION  IMAGE                                          CHANGE-CAUSE',
    ...rows,
    '',
    '$ kubectl describe deploy/checkout-api -n prod | tail -30',
    ...describe,
  ].join('\n');
}

export function errorLogs(): string {
  const noise = noiseSource(303);
  const stack = [
    '    at Pool.acquire (node_modules/pg-pool/index.js:45:11)',
    '    at async CheckoutRepository.reserve (dist/repository.js:88:19)',
    '    at async handler (dist/routes/checkout.js:41:5)',
  ];
  return withFacts(
    70,
    (index) =>
      index % 5 === 4
        ? stack[index % 3]
        : `${timestamp(noise, 6 + Math.floor(index / 6))} ERROR checkout-api req=${noise.uuid()} ${noise.pick(['PoolTimeoutError: timeout acquiring a client', 'PaymentGatewayError: authorize failed (retrying)', 'OrderWriteError: insert into orders aborted'])}`,
    [
      [
        0.08,
        '2026-11-28T14:06:02.114Z FATAL checkout-api db: connection refused by server: SQLSTATE 53300 (too_many_connections) — remaining connection slots are reserved',
      ],
      [
        0.5,
        '2026-11-28T14:09:47.906Z ERROR checkout-api slowest failing request request_id=7f3e9a21-4c8b-4f6e-9d2a-1b5c6e8f0a3d route="POST /v1/checkout" latency_ms=30004',
      ],
    ],
  );
}

export function codeSearch(): string {
  const noise = noiseSource(404);
  const files = [
    'src/api/checkout.ts',
    'src/api/orders.ts',
    'src/workers/capture.ts',
    'src/db/pool.test.ts',
    'src/db/migrate.ts',
    'scripts/load-test.ts',
    'src/payments/client.ts',
    'src/health/ready.ts',
  ];
  return withFacts(
    48,
    () =>
      `/srv/checkout/${noise.pick(files)}:${noise.integer(300) + 1}:   ${noise.pick(['const client = await pool.connect();', 'import { createPool } from "../db/pool-factory";', 'createPool({ max: cfg.size, idleTimeoutMillis: 10_000 })', '// createPool is memoized per process', 'await pool.end();'])}`,
    [[0.92, '/srv/checkout/src/db/pool.ts:42:   export const pool = createPool(loadPoolConfig());']],
  );
}

export function requestTrace(): string {
  const noise = noiseSource(505);
  const services = ['edge-proxy', 'checkout-api', 'cart-svc', 'payments-gateway', 'orders-writer'];
  return withFacts(
    34,
    (index) =>
      `${timestamp(noise, 9)} ${noise.pick(['INFO', 'DEBUG', 'WARN'])} ${services[index % services.length]} request_id=7f3e9a21-4c8b-4f6e-9d2a-1b5c6e8f0a3d span=${noise.hex(16)} ${noise.pick(['enter', 'exit', 'retry', 'acquire client', 'release client'])} took_ms=${noise.integer(900)}`,
    [
      [
        0.45,
        '2026-11-28T14:09:17.902Z INFO  edge-proxy request_id=7f3e9a21-4c8b-4f6e-9d2a-1b5c6e8f0a3d trace_id=4bf92f3577b34da6a3ce929d0e0e4736 sampled=1',
      ],
      [
        0.94,
        '2026-11-28T14:09:47.903Z ERROR checkout-api request_id=7f3e9a21-4c8b-4f6e-9d2a-1b5c6e8f0a3d db.addr=db-primary.internal:5432 wait_ms=30000 error="remaining connection slots are reserved"',
      ],
    ],
  );
}

export function commitShow(): string {
  const noise = noiseSource(606);
  const header = [
    'commit a3f97c21d8e4b5f60718293a4b5c6d7e8f901234',
    'Author: Dana Ruiz <dana@acme.io>',
    'Date:   Fri Nov 28 13:41:09 2026 +0000',
    '',
    '    Enable checkout_async_capture_v2 by default and raise pool size to 48 per pod',
    '',
    '    Async capture halves p50 latency in staging. Pool size follows the new worker count.',
    '',
  ];
  const stats = Array.from(
    { length: 38 },
    () =>
      ` src/${noise.pick(['api', 'workers', 'payments', 'db', 'config'])}/${noise.pick(['capture', 'checkout', 'retry', 'client', 'limits', 'flags'])}-${noise.hex(4)}.ts | ${noise.integer(60) + 1} ${'+'.repeat(noise.integer(20) + 1)}${'-'.repeat(noise.integer(8))}`,
  );
  stats.push(' migrations/20260616_add_orders_idx.sql | 14 ++++++++++++++');
  stats.push(' 39 files changed, 1204 insertions(+), 311 deletions(-)');
  return [...header, ...stats].join('\n');
}

export function poolSource(): string {
  const noise = noiseSource(707);
  const code = (index: number): string =>
    noise.pick([
      `  // ${noise.pick(['keep idle clients warm', 'see runbook', 'retry once on reset', 'metrics are per pod'])}`,
      `  const ${noise.pick(['size', 'limit', 'idle', 'timeout'])}${index} = Number(env.${noise.pick(['POOL_MAX', 'POOL_IDLE_MS', 'POOL_TIMEOUT_MS'])} ?? ${noise.integer(100)});`,
      `  if (!config.${noise.pick(['size', 'timeoutMs', 'idleMs'])}) throw new ConfigError('pool: missing setting');`,
      `  metrics.gauge('pool.${noise.pick(['size', 'waiting', 'idle'])}', ${noise.integer(50)});`,
      '}',
      `export function ${noise.pick(['poolStats', 'drainPool', 'warmPool', 'resizePool'])}${index}(pool: Pool): void {`,
    ]);
  return withFacts(110, code, [
    [0, "import { createPool, type Pool } from './pool-factory';\nimport { readFileSync } from 'node:fs';"],
    [
      0.5,
      "const configPath = process.env.POOL_CONFIG ?? '/etc/checkout/pool.yaml'; // mounted from configmap checkout-pool",
    ],
  ]);
}

export function traceSpans(): string {
  const noise = noiseSource(808);
  const spans = Array.from({ length: 60 }, (_, index) =>
    JSON.stringify({
      spanId: noise.hex(16),
      parentSpanId: index ? noise.hex(16) : null,
      service: noise.pick(['edge-proxy', 'checkout-api', 'cart-svc', 'payments-gateway', 'orders-writer']),
      name: noise.pick(['pg.query', 'pg.pool.acquire', 'http.client', 'handler', 'redis.get', 'kafka.produce']),
      durationMs: noise.integer(30_000),
      attributes: {
        'db.system': noise.pick(['postgresql', 'none']),
        'net.peer.port': noise.pick([5432, 6432, 443, 9092]),
        retry: noise.integer(3),
      },
    }),
  );
  spans.splice(
    57,
    0,
    JSON.stringify({
      spanId: 'c0ffee12ab34cd56',
      service: 'checkout-api',
      name: 'redis.get',
      durationMs: 2,
      attributes: { 'peer.address': 'redis-cache-02.internal:6379', hit: true },
    }),
  );
  return `{"traceId":"4bf92f3577b34da6a3ce929d0e0e4736","spans":[\n${spans.join(',\n')}\n]}`;
}

export function poolConfig(): string {
  const noise = noiseSource(909);
  return withFacts(
    36,
    (index) =>
      `${'  '.repeat(index % 3)}${noise.pick(['idle_timeout_ms', 'acquire_timeout_ms', 'statement_timeout_ms', 'keepalive', 'application_name', 'ssl_mode'])}: ${noise.pick(['30000', '10000', 'true', 'checkout-api', 'require', '5000'])}`,
    [
      [0.1, 'pool_size_per_pod: 48\nreplicas: 6'],
      [
        0.5,
        '# primary limits (from postgres.conf, mirrored here for the pool planner)\nmax_connections: 200\nreserved_connections: 3',
      ],
    ],
  );
}

export function podLogs(): string {
  const noise = noiseSource(1010);
  return withFacts(
    84,
    (index) =>
      `${timestamp(noise, 2 + Math.floor(index / 8))} ${noise.pick(['INFO', 'WARN', 'ERROR'])} ${noise.pick(['pool: waiting for client', 'capture worker started', 'pool: client acquired', 'http: 503 sent', 'pool: acquire timeout'])} waiting=${noise.integer(300)} req=${noise.uuid()}`,
    [
      [
        0.02,
        'checkout-api v2.41.3 starting (node 20.20.2), workers=8\ndashboards: https://grafana.acme.io/d/checkout-latency?orgId=1 · runbook: https://runbooks.acme.io/checkout',
      ],
      [0.97, 'FATAL: too many pool waiters (300), exiting with code 137'],
    ],
  );
}

export function pullRequests(): string {
  const noise = noiseSource(1111);
  return withFacts(
    26,
    () =>
      `#${4700 + noise.integer(100)}  ${noise.pick(['Bump pg to 8.13', 'Add pool metrics', 'Tune idle timeout', 'Split capture worker', 'Docs: pool sizing'])}  ${noise.pick(['feat', 'chore', 'fix'])}/${noise.hex(6)}  ${noise.pick(['MERGED', 'CLOSED'])}`,
    [[0.5, '#4827  Revert "raise pool size to 48 per pod"  fix/pool-revert  OPEN']],
  );
}

export function connectionCount(): string {
  return [
    '  state  | count',
    '---------+-------',
    ' idle    |   175',
    ' active  |    20',
    ' idle in transaction | 3',
    '(3 rows)',
    '',
    'total 198 connections (3 reserved for superuser)',
  ].join('\n');
}

export function rolloutStatus(): string {
  const noise = noiseSource(1313);
  const lines = Array.from(
    { length: 14 },
    (_, index) =>
      `Waiting for deployment "checkout-api" rollout to finish: ${Math.min(6, index / 2 + 1) | 0} of 6 updated replicas are available...`,
  );
  lines.unshift('deployment.apps/checkout-api image updated');
  lines.push(`deployment "checkout-api" successfully rolled out (replica set checkout-api-${noise.hex(9)})`);
  return lines.join('\n');
}

export function flagChange(): string {
  return [
    'flag updated (env=prod)',
    '  previous: on (rollout 100%)',
    '  current:  off',
    '  propagated to 6/6 pods in 4.1s',
    'audit: change #9921 recorded by sre-agent',
  ].join('\n');
}

export function dashboardValues(): string {
  const noise = noiseSource(1515);
  return withFacts(
    24,
    (index) =>
      `{"panel":"${noise.pick(['5xx rate', 'p99 latency', 'pool waiting', 'db connections'])}","t":"14:${String(30 + index).padStart(2, '0')}","value":${(noise.integer(1000) / 10).toFixed(1)}}`,
    [[1, '{"summary":"5xx rate 0.4% (was 31.4%), p99 latency 420ms, db connections 96/200"}']],
  );
}
