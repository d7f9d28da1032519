import { describe, expect, it } from 'vitest';
import { claudeCompactWindow } from '../../src/node/cli/launch-command.ts';

describe('warpfold claude keeps the full window of a first-party model', () => {
  it('sets the compaction window from the model table for the model the client runs', () => {
    expect(claudeCompactWindow({}, ['--model', 'claude-opus-4-6', '-p', 'hi'], undefined)).toEqual({
      CLAUDE_CODE_AUTO_COMPACT_WINDOW: '1000000',
    });
    expect(claudeCompactWindow({ ANTHROPIC_MODEL: 'claude-sonnet-4-5' }, [], 'https://api.anthropic.com')).toEqual({
      CLAUDE_CODE_AUTO_COMPACT_WINDOW: '200000',
    });
  });

  it("leaves it to the client for another upstream, an unknown or absent model, or the user's own setting", () => {
    expect(claudeCompactWindow({}, ['--model', 'claude-opus-4-6'], 'http://127.0.0.1:9000')).toEqual({});
    expect(claudeCompactWindow({}, ['--model', 'my-own-model'], undefined)).toEqual({});
    expect(claudeCompactWindow({}, ['-p', 'hi'], undefined)).toEqual({});
    expect(claudeCompactWindow({}, ['--model', 'gpt-5'], undefined)).toEqual({});
    expect(
      claudeCompactWindow({ CLAUDE_CODE_AUTO_COMPACT_WINDOW: '150000' }, ['--model', 'claude-opus-4-6'], undefined),
    ).toEqual({});
  });
});
