import { describe, expect, it } from 'vitest';
import { CLOSET_MARK, prepareCloset, type ClosetOccurrence } from '../../src/closet/render-closet.ts';

const occurrence = (
  value: string,
  kind: ClosetOccurrence['kind'],
  source: string,
  messageIndex: number,
): ClosetOccurrence => ({ value, kind, source, messageIndex, lane: 'tool' });

describe('closet whole lines', () => {
  it('keeps a value whose line is short as that whole line in the bare list, and a value on a long line bare', () => {
    const pathLine =
      'Traceback: File "src/config/settings_loader.py", line 214, in load_settings_from_environment_and_disk';
    const shortLine = 'warn_unused_configs = True';
    const longLine =
      '    strict_optional_checks is read here only when the caller passes a mapping of overrides, never from disk';
    const raw = [pathLine, shortLine, longLine].join('\n');
    const render = prepareCloset(
      [
        occurrence('src/config/settings_loader.py', 'path', pathLine, 5),
        occurrence('warn_unused_configs', 'symbol', shortLine, 4),
        occurrence('strict_optional_checks', 'symbol', longLine, 3),
      ],
      0,
      6,
      () => raw,
    );
    // the path's window takes the window share; the two symbols share the bare line
    expect(render({ budgetTokens: 100, isPresent: () => false }).split('\n')).toEqual([
      `${CLOSET_MARK} ${pathLine}`,
      `${CLOSET_MARK} ${shortLine} · strict_optional_checks`,
    ]);
  });
});
