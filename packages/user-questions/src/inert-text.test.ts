import { describe, expect, it } from 'vitest';
import { revealBidiControls, toolInputText } from './inert-text.js';

describe('revealBidiControls', () => {
  it('writes every directional formatting character as its escape and leaves other text alone', () => {
    expect(revealBidiControls('a\u202Eb\u2066c\u200Fd\u061Ce 中文 עברית')).toBe('a\\u202eb\\u2066c\\u200fd\\u061ce 中文 עברית');
  });
});

describe('toolInputText', () => {
  it('indents JSON by two spaces and escapes bidi controls inside strings, staying valid JSON', () => {
    const input = { file: 'invoice\u202Efdp.exe', n: [1, 2] };
    const text = toolInputText(input)!;
    expect(text).toBe('{\n  "file": "invoice\\u202efdp.exe",\n  "n": [\n    1,\n    2\n  ]\n}');
    expect(JSON.parse(text)).toEqual(input);
  });

  it('has no text for a value with no JSON form', () => {
    expect(toolInputText(undefined)).toBeUndefined();
  });
});
