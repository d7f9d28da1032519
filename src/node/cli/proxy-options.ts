import type { ProxyOptions } from '../proxy/start-proxy.ts';
import { integerOption, parseCommandArguments, stringOption } from './arguments.ts';
import { UsageError } from './usage-error.ts';

/** The flags `warpfold proxy` takes, shared with the launchers (`warpfold claude [PROXY FLAGS] -- …`). */
export const PROXY_FLAGS = {
  port: { type: 'string' },
  host: { type: 'string' },
  token: { type: 'string' },
  ceiling: { type: 'string' },
  model: { type: 'string' },
  'anthropic-upstream': { type: 'string' },
  'openai-upstream': { type: 'string' },
  'gemini-upstream': { type: 'string' },
  'state-dir': { type: 'string' },
  shadow: { type: 'boolean' },
  'log-bodies': { type: 'boolean' },
  'max-warm-sessions': { type: 'string' },
} as const;

function urlOption(command: string, name: string, value: string | boolean | undefined): string | undefined {
  const text = stringOption(value);
  if (text === undefined) return undefined;
  if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol)) {
    throw new UsageError(`--${name} must be an http(s) URL, got "${text}"`, command);
  }
  return text;
}

/** Parsed proxy flags, and whatever else was on the line (`--help`, positionals). */
export function readProxyOptions(
  command: string,
  args: readonly string[],
): { options: ProxyOptions; help: boolean; positionals: string[] } {
  const { values, positionals } = parseCommandArguments(command, args, PROXY_FLAGS);
  const token = stringOption(values.token) ?? process.env.WARPFOLD_PROXY_TOKEN;
  const upstreams = {
    ...(values['anthropic-upstream'] !== undefined
      ? { anthropic: urlOption(command, 'anthropic-upstream', values['anthropic-upstream']) }
      : {}),
    ...(values['openai-upstream'] !== undefined
      ? { openai: urlOption(command, 'openai-upstream', values['openai-upstream']) }
      : {}),
    ...(values['gemini-upstream'] !== undefined
      ? { gemini: urlOption(command, 'gemini-upstream', values['gemini-upstream']) }
      : {}),
  } as ProxyOptions['upstreams'];
  const port = integerOption(command, 'port', values.port, 0);
  if (port !== undefined && port > 65_535) throw new UsageError(`--port must be at most 65535, got ${port}`, command);
  const host = stringOption(values.host);
  if (host !== undefined && !['127.0.0.1', 'localhost', '::1'].includes(host) && !token)
    throw new UsageError(`--host ${host} is not loopback: give --token (clients send it as x-warpfold-token)`, command);
  return {
    help: values.help === true,
    positionals,
    options: {
      port,
      host,
      token: token || undefined,
      ceiling: integerOption(command, 'ceiling', values.ceiling, 1_000),
      model: stringOption(values.model),
      upstreams,
      stateDir: stringOption(values['state-dir']),
      shadow: values.shadow === true,
      logBodies: values['log-bodies'] === true,
      maxWarmSessions: integerOption(command, 'max-warm-sessions', values['max-warm-sessions'], 1),
    },
  };
}

/** The same flags as command-line arguments again, for a proxy started in the background. */
export function proxyArguments(options: ProxyOptions): string[] {
  const args: string[] = [];
  const add = (name: string, value: string | number | undefined) => {
    if (value !== undefined) args.push(`--${name}`, String(value));
  };
  add('port', options.port);
  add('host', options.host);
  add('ceiling', options.ceiling);
  add('model', options.model);
  add('anthropic-upstream', options.upstreams?.anthropic);
  add('openai-upstream', options.upstreams?.openai);
  add('gemini-upstream', options.upstreams?.gemini);
  add('state-dir', options.stateDir);
  add('max-warm-sessions', options.maxWarmSessions);
  if (options.shadow) args.push('--shadow');
  if (options.logBodies) args.push('--log-bodies');
  return args;
}
