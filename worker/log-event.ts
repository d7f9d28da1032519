export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/**
 * One JSON object per line on the console, which Workers Logs and `wrangler tail` keep as
 * structured fields. Never pass tokens or message contents: callers log ids, sizes and codes.
 */
export function logEvent(level: LogLevel, event: string, fields: Readonly<Record<string, unknown>> = {}): void {
  const line = JSON.stringify({ level, event, ...fields });
  if (level === 'error') console.error(line);
  else if (level === 'warn') console.warn(line);
  else console.log(line);
}
