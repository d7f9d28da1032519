// The built-in scenario: a 16-call outage investigation by a tool-using agent, written once in a
// neutral form and emitted in each provider dialect. Sixteen vital facts sit in tool results at
// different depths; the agent uses each one later, at its point of need.
import * as outputs from './outage-tool-outputs.ts';

export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly parameters: {
    readonly type: 'object';
    readonly properties: Record<string, { type: string; description: string }>;
    readonly required: readonly string[];
  };
}

export interface ScriptStep {
  /** An operator message that arrives just before this model call. */
  readonly operator?: string;
  /** Wall time that passes before this call, beyond the usual step (a human pause lets caches expire). */
  readonly pauseSeconds?: number;
  readonly assistantText: string;
  /** Absent on the last step, the final report. */
  readonly toolCall?: { readonly name: string; readonly arguments: Record<string, string> };
  readonly toolResult?: string;
}

export interface VitalFact {
  readonly value: string;
  readonly kind: string;
  /** The step (1-based) whose tool result first shows the fact. */
  readonly plantedAtStep: number;
  /** The step whose assistant message uses it: the prompt of that call must hold it. */
  readonly neededAtStep: number;
}

export interface OutageScript {
  readonly system: string;
  readonly task: string;
  readonly tools: readonly ToolDefinition[];
  readonly steps: readonly ScriptStep[];
  readonly facts: readonly VitalFact[];
}

const property = (description: string) => ({ type: 'string', description });

const TOOLS: readonly ToolDefinition[] = [
  {
    name: 'query_logs',
    description: 'Search the central log store. Returns matching lines, newest last.',
    parameters: {
      type: 'object',
      properties: {
        service: property('service name'),
        query: property('filter expression'),
        since: property('time window such as 30m'),
      },
      required: ['service', 'query'],
    },
  },
  {
    name: 'run_command',
    description: 'Run a shell command on the operations host (kubectl, git, psql, gh, flagctl available).',
    parameters: { type: 'object', properties: { command: property('the command line') }, required: ['command'] },
  },
  {
    name: 'search_code',
    description: 'Search a source tree for a pattern; returns path:line: text.',
    parameters: {
      type: 'object',
      properties: { pattern: property('regular expression'), path: property('directory to search') },
      required: ['pattern', 'path'],
    },
  },
  {
    name: 'read_file',
    description: 'Read a file from the operations host.',
    parameters: { type: 'object', properties: { path: property('absolute path') }, required: ['path'] },
  },
  {
    name: 'http_get',
    description: 'GET an internal URL (tracing, dashboards) and return the body.',
    parameters: { type: 'object', properties: { url: property('absolute URL') }, required: ['url'] },
  },
];

const SYSTEM = [
  "You are the on-call SRE agent for Acme's checkout platform. You investigate production incidents with the tools provided and you act only within the change policy below.",
  '',
  'Working rules:',
  '- Read before you act. Quote exact identifiers (request ids, trace ids, commit SHAs, image tags, hostnames and ports, file paths) from tool output; never retype them from memory.',
  '- Prefer reversible mitigations: image rollback, feature-flag off, scaling. Never restart shared databases, never run destructive SQL, never force-push.',
  '- Every production change needs a reason that names the incident, and you must verify its effect on the dashboards afterwards.',
  '- Keep the operator informed: one or two sentences per step saying what you learned and what you will do next.',
  '- When the incident is mitigated, write a short report: impact, root cause, the changes you made, follow-ups with owners.',
  '',
  'Environment: Kubernetes namespace prod; services checkout-api, cart-svc, payments-gateway, orders-writer; Postgres primary shared with billing; Redis cache cluster; tracing at tracing.acme.io; dashboards at grafana.acme.io.',
].join('\n');

const TASK =
  'Checkout is throwing 5xx errors since about 14:05 UTC and the payments team is paging us. Find out what broke, mitigate it safely, and report back.';

const STEPS: readonly ScriptStep[] = [
  {
    assistantText: 'Starting with the error logs of checkout-api for the last 30 minutes to size the blast radius.',
    toolCall: { name: 'query_logs', arguments: { service: 'checkout-api', query: 'status>=500', since: '30m' } },
    toolResult: outputs.alertLogs(),
  },
  {
    assistantText: 'Errors started right after 14:02. Checking what was deployed around then.',
    toolCall: {
      name: 'run_command',
      arguments: {
        command:
          'kubectl rollout history deploy/checkout-api -n prod --show-images && kubectl describe deploy/checkout-api -n prod | tail -30',
      },
    },
    toolResult: outputs.rolloutHistory(),
  },
  {
    assistantText:
      'A deploy landed at 14:02. Before blaming it, looking at the error-level messages to see what the requests die on.',
    toolCall: { name: 'query_logs', arguments: { service: 'checkout-api', query: 'level>=error', since: '30m' } },
    toolResult: outputs.errorLogs(),
  },
  {
    assistantText: 'Requests time out acquiring database clients. Finding where the pool is created.',
    toolCall: { name: 'search_code', arguments: { pattern: 'createPool', path: '/srv/checkout' } },
    toolResult: outputs.codeSearch(),
  },
  {
    assistantText: 'Following the slowest failing request, 7f3e9a21-4c8b-4f6e-9d2a-1b5c6e8f0a3d, across services.',
    toolCall: {
      name: 'query_logs',
      arguments: { service: '*', query: 'request_id=7f3e9a21-4c8b-4f6e-9d2a-1b5c6e8f0a3d', since: '30m' },
    },
    toolResult: outputs.requestTrace(),
  },
  {
    assistantText:
      'The request waited 30 s for a database connection. Reading the change that went out at 14:02, commit a3f97c21d8e4b5f60718293a4b5c6d7e8f901234.',
    toolCall: {
      name: 'run_command',
      arguments: { command: 'git -C /srv/checkout show --stat a3f97c21d8e4b5f60718293a4b5c6d7e8f901234' },
    },
    toolResult: outputs.commitShow(),
  },
  {
    assistantText:
      'The commit raised the pool size. Reading the pool module at /srv/checkout/src/db/pool.ts to see where the size comes from.',
    toolCall: { name: 'read_file', arguments: { path: '/srv/checkout/src/db/pool.ts' } },
    toolResult: outputs.poolSource(),
  },
  {
    assistantText: 'Pulling the full trace 4bf92f3577b34da6a3ce929d0e0e4736 to rule out other slow dependencies.',
    toolCall: {
      name: 'http_get',
      arguments: { url: 'https://tracing.acme.io/api/v2/traces/4bf92f3577b34da6a3ce929d0e0e4736' },
    },
    toolResult: outputs.traceSpans(),
  },
  {
    operator:
      'Lead here: do NOT restart the database primary, it is shared with billing. A rollback of checkout is approved if you need it.',
    pauseSeconds: 420,
    assistantText:
      'Understood, no database restart. Reading the pool configuration at /etc/checkout/pool.yaml to compare the pool size with the database limits.',
    toolCall: { name: 'read_file', arguments: { path: '/etc/checkout/pool.yaml' } },
    toolResult: outputs.poolConfig(),
  },
  {
    assistantText:
      'Six pods times 48 clients is 288, above what the primary allows. Checking why checkout-api-7d9f8b6c5-x2k4p crashed, the pod with the most errors.',
    toolCall: {
      name: 'run_command',
      arguments: { command: 'kubectl logs checkout-api-7d9f8b6c5-x2k4p -n prod --previous --tail=120' },
    },
    toolResult: outputs.podLogs(),
  },
  {
    assistantText: 'The pod died of pool waiters piling up. Looking for an existing fix before changing anything.',
    toolCall: {
      name: 'run_command',
      arguments: { command: 'gh pr list --repo acme/checkout --search "pool" --state all --limit 30' },
    },
    toolResult: outputs.pullRequests(),
  },
  {
    assistantText: 'Confirming the connection count on the primary at db-primary.internal:5432 with a read-only query.',
    toolCall: {
      name: 'run_command',
      arguments: {
        command:
          'psql "postgres://readonly@db-primary.internal:5432/checkout" -c "select state, count(*) from pg_stat_activity group by 1"',
      },
    },
    toolResult: outputs.connectionCount(),
  },
  {
    assistantText:
      'The primary is at its connection limit. Rolling checkout-api back to the previous image, checkout-api:v2.41.2, as approved.',
    toolCall: {
      name: 'run_command',
      arguments: {
        command:
          'kubectl set image deploy/checkout-api api=registry.acme.io/checkout-api:v2.41.2 -n prod && kubectl rollout status deploy/checkout-api -n prod',
      },
    },
    toolResult: outputs.rolloutStatus(),
  },
  {
    assistantText:
      'Rollback done. Turning off checkout_async_capture_v2 as well, since the new capture workers hold connections longer.',
    toolCall: {
      name: 'run_command',
      arguments: {
        command: 'flagctl set checkout_async_capture_v2 off --env prod --reason "checkout incident mitigation"',
      },
    },
    toolResult: outputs.flagChange(),
  },
  {
    assistantText:
      'The trace showed redis-cache-02.internal:6379 answering in 2 ms, so the cache is not involved. Verifying recovery on https://grafana.acme.io/d/checkout-latency?orgId=1.',
    toolCall: {
      name: 'http_get',
      arguments: { url: 'https://grafana.acme.io/d/checkout-latency?orgId=1&from=now-15m&format=json' },
    },
    toolResult: outputs.dashboardValues(),
  },
  {
    assistantText: [
      'Incident INC-2291 is mitigated: the 5xx rate is back to 0.4%.',
      'Root cause: the 14:02 deploy raised the pool to 48 clients per pod; with 6 pods that exceeds max_connections: 200 on the primary, which refused new clients with SQLSTATE 53300 and requests timed out waiting for a connection.',
      'Changes: rolled back the image and turned the async capture flag off.',
      'Follow-ups: merge #4827 (pool revert) before re-deploying; check that migrations/20260616_add_orders_idx.sql did not leave an invalid index.',
    ].join('\n'),
  },
];

const FACTS: readonly VitalFact[] = [
  { value: 'INC-2291', kind: 'incident id', plantedAtStep: 1, neededAtStep: 16 },
  { value: 'checkout-api-7d9f8b6c5-x2k4p', kind: 'pod name', plantedAtStep: 1, neededAtStep: 10 },
  { value: 'checkout-api:v2.41.2', kind: 'image tag', plantedAtStep: 2, neededAtStep: 13 },
  { value: 'a3f97c21d8e4b5f60718293a4b5c6d7e8f901234', kind: 'commit SHA', plantedAtStep: 2, neededAtStep: 6 },
  { value: 'SQLSTATE 53300', kind: 'error code', plantedAtStep: 3, neededAtStep: 16 },
  { value: '7f3e9a21-4c8b-4f6e-9d2a-1b5c6e8f0a3d', kind: 'request UUID', plantedAtStep: 3, neededAtStep: 5 },
  { value: '/srv/checkout/src/db/pool.ts', kind: 'source path', plantedAtStep: 4, neededAtStep: 7 },
  { value: '4bf92f3577b34da6a3ce929d0e0e4736', kind: 'trace id', plantedAtStep: 5, neededAtStep: 8 },
  { value: 'db-primary.internal:5432', kind: 'host:port', plantedAtStep: 5, neededAtStep: 12 },
  { value: 'checkout_async_capture_v2', kind: 'feature flag', plantedAtStep: 6, neededAtStep: 14 },
  { value: 'migrations/20260616_add_orders_idx.sql', kind: 'migration path', plantedAtStep: 6, neededAtStep: 16 },
  { value: '/etc/checkout/pool.yaml', kind: 'config path', plantedAtStep: 7, neededAtStep: 9 },
  { value: 'redis-cache-02.internal:6379', kind: 'host:port', plantedAtStep: 8, neededAtStep: 15 },
  { value: 'max_connections: 200', kind: 'config value', plantedAtStep: 9, neededAtStep: 16 },
  {
    value: 'https://grafana.acme.io/d/checkout-latency?orgId=1',
    kind: 'dashboard URL',
    plantedAtStep: 10,
    neededAtStep: 15,
  },
  { value: '#4827', kind: 'pull request', plantedAtStep: 11, neededAtStep: 16 },
];

export const OUTAGE_SCRIPT: OutageScript = { system: SYSTEM, task: TASK, tools: TOOLS, steps: STEPS, facts: FACTS };
