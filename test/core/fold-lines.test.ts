import { describe, expect, it } from 'vitest';
import { foldContext } from '../../src/fold/index.ts';
import { FoldSession } from '../../src/index.ts';
import type { ProviderMessage } from '../../src/messages/types.ts';

const foldText = (messages: readonly ProviderMessage[]) => {
  const band = messages.find(
    (message) => typeof message.content === 'string' && message.content.startsWith('[warpfold fold'),
  );
  if (!band || typeof band.content !== 'string') throw new Error('no fold in the view');
  return band.content;
};

describe('folded lines', () => {
  const boxed = `   │ - Have we run the test and confirmed it fails (RED)?${' '.repeat(60)}│`;
  const code = '        return [book for book in books if book.progress > 0]';
  const history: ProviderMessage[] = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Plan the next step of the feature.' },
    {
      role: 'assistant',
      content: `Here is the checklist:\n${boxed}\nAnd the filter:\n${code}\n${'Padding prose that explains the plan in some detail. '.repeat(40)}`,
    },
    { role: 'user', content: 'Now write the failing test.' },
    { role: 'assistant', content: 'Writing it now.' },
  ];

  it("keeps the agent's own arguments byte for byte", () => {
    const aligned = 'LIMIT    = 10  # books per page';
    const withCall: ProviderMessage[] = [
      ...history.slice(0, 3),
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'w1',
            type: 'function',
            function: {
              name: 'write_file',
              arguments: JSON.stringify({ path: 'app/config.py', content: `${aligned}\nTIMEOUT  = 30` }),
            },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'w1', content: 'ok' },
      ...history.slice(3),
    ];
    expect(foldText(foldContext(withCall, { turnsToFold: 1, budgetTokens: 600 }).messages)).toContain(aligned);
  });

  it('shrinks padding inside a line to one space and keeps its indentation', () => {
    const text = foldText(foldContext(history, { turnsToFold: 1, budgetTokens: 400 }).messages);
    expect(text).toContain('│ - Have we run the test and confirmed it fails (RED)? │');
    expect(text).not.toContain('(RED)?  ');
    expect(text).toContain(code);
  });
  it('reads a call whose other arguments are short values as the agent wrote it: key first, then the rest in order', () => {
    const command = 'ssh root@router "/etc/init.d/dnsmasq restart"';
    const withShell: ProviderMessage[] = [
      ...history.slice(0, 3),
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'b1',
            type: 'function',
            function: {
              name: 'Bash',
              arguments: JSON.stringify({ command, description: 'Restart dnsmasq service', timeout: 15000 }),
            },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'b1', content: 'ok' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'r1',
            type: 'function',
            function: {
              name: 'Read',
              arguments: JSON.stringify({ file_path: '/etc/config/dhcp', offset: 10, limit: 40, notes: 'a\nb' }),
            },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'r1', content: 'config dhcp lan' },
      ...history.slice(3),
    ];
    const text = foldText(foldContext(withShell, { turnsToFold: 1, budgetTokens: 600 }).messages);
    expect(text).toContain(`▸ Bash: ${command} Restart dnsmasq service 15000 → 1 line`);
    // a multi-line value keeps the named rendering: key, then its detail
    expect(text).toContain('▸ Read: /etc/config/dhcp @10+40 → 1 line');
  });

  it('reads structured arguments as the words the agent wrote, without JSON syntax', () => {
    const todos = [
      {
        content: 'Check local network connectivity (IP, gateway, DNS)',
        status: 'completed',
        activeForm: 'Checking local network connectivity',
      },
      {
        content: 'Test DNS resolution through the router',
        status: 'in_progress',
        activeForm: 'Testing DNS resolution',
      },
    ];
    const withTodos: ProviderMessage[] = [
      ...history.slice(0, 3),
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 't1', type: 'function', function: { name: 'TodoWrite', arguments: JSON.stringify({ todos }) } },
        ],
      },
      { role: 'tool', tool_call_id: 't1', content: 'Todos have been modified successfully.' },
      ...history.slice(3),
    ];
    const text = foldText(foldContext(withTodos, { turnsToFold: 1, budgetTokens: 600 }).messages);
    expect(text).toContain(
      '▸ TodoWrite: Check local network connectivity (IP, gateway, DNS) completed Checking local network connectivity Test DNS resolution',
    );
    expect(text).not.toContain('"status"');
  });
});

describe('a fold after the raw head', () => {
  it('does not repeat words the raw head already shows', () => {
    const task =
      'Make the importer skip rows whose checksum column does not match the recomputed value before saving anything.';
    const history: ProviderMessage[] = [
      { role: 'system', content: 'You are a careful coding agent.' },
      { role: 'user', content: task },
    ];
    for (let i = 0; i < 30; i++) {
      const command = `grep -n checksum src/part${i}.py`;
      history.push({
        role: 'assistant',
        content: i === 3 ? task : `Step ${i}: checking module part ${i} for the importer flow.`,
        tool_calls: [
          { id: `c${i}`, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command }) } },
        ],
      });
      history.push({
        role: 'tool',
        tool_call_id: `c${i}`,
        content: Array.from(
          { length: 12 },
          (_, k) => `src/part${i}.py:${k + 10}: value = compute_checksum(row_${k})`,
        ).join('\n'),
      });
    }
    history.push({ role: 'user', content: 'Keep going.' });
    const view = new FoldSession({ pressureCeiling: 2_500, now: () => 0 }).prepare(history).messages;
    expect(view[1]).toBe(history[1]);
    expect(foldText(view)).not.toContain(task);
  });
});
