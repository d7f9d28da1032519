import { describe, expect, it } from 'vitest';
import { wordsAround } from '../../src/closet/render-closet.ts';

describe('wordsAround', () => {
  it('keeps the raw words either side of a value verbatim, counting a run of spaces as one', () => {
    const line = `${'x'.repeat(100)}    config = load("settings/prod.yaml")    # ${'y'.repeat(100)}`;
    const window = wordsAround(`first line\n${line}\nlast line`, 'settings/prod.yaml')!.text;
    expect(line).toContain(window);
    expect(window).toContain('config = load("settings/prod.yaml")');
    // 60 counted characters either side: each run of spaces is one of them
    const collapsed = window.replace(/\s+/g, ' ');
    const at = collapsed.indexOf('settings/prod.yaml');
    expect(at).toBe(60);
    expect(collapsed.length - at - 'settings/prod.yaml'.length).toBe(60);
  });

  it('never cuts a surrogate pair, and is undefined when no line holds the value', () => {
    const line = `${'😀'.repeat(40)} abc_def_ghi ${'😀'.repeat(40)}`;
    const window = wordsAround(line, 'abc_def_ghi')!.text;
    expect(window).toContain('abc_def_ghi');
    // no lone surrogate at either end
    expect(window).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
    expect(line).toContain(window);
    expect(wordsAround('nothing here', 'abc_def_ghi')).toBeUndefined();
  });
});
