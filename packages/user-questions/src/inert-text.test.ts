import { describe, expect, it } from 'vitest';
import { revealBidiControls, toolInputKeys, toolInputText } from './inert-text.js';

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

describe('toolInputKeys', () => {
  it('tells apart keys that differ only by characters that draw nothing, and shows them in the JSON too', () => {
    const input = { command: 'ls', 'command\u200b': 'rm -rf /', 'com\u00admand': 1, 'c\u{e0041}md': 2 };
    expect(toolInputKeys(input)).toEqual(['command', 'command\\u200b', 'com\\u00admand', 'c\\udb40\\udc41md']);
    const text = toolInputText(input)!;
    expect(text).toContain('"command\\u200b": "rm -rf /"');
    // Still JSON: the escapes read back as the very keys that will run.
    expect(Object.keys(JSON.parse(text) as object)).toEqual(Object.keys(input));
  });

  it('names every top-level key in JSON order, the last of many too', () => {
    const input = { ...Object.fromEntries(Array.from({ length: 24 }, (_, index) => [`note_${index}`, 1])), rm_rf_target: '/' };
    const keys = toolInputKeys(input)!;
    expect(keys).toHaveLength(25);
    expect(keys.at(-1)).toBe('rm_rf_target');
    expect(toolInputKeys({ b: 1, 2: 0, a: { nested: true } })).toEqual(['2', 'b', 'a']);
  });

  it('writes a key as it reads inside the JSON: quotes, line breaks and bidi controls escaped', () => {
    expect(toolInputKeys({ 'a"b\nc\u202Ed': 1 })).toEqual(['a\\"b\\nc\\u202ed']);
  });

  it('shortens a long key in the middle, keeping both ends', () => {
    const [key] = toolInputKeys({ [`${'x'.repeat(60)}_delete_everything`]: true })!;
    expect(key).toBe(`${'x'.repeat(24)}…lete_everything`);
    expect(Array.from(key!)).toHaveLength(40);
    // A surrogate pair is never cut in half.
    expect(toolInputKeys({ ['😀'.repeat(50)]: 1 })![0]).toBe(`${'😀'.repeat(24)}…${'😀'.repeat(15)}`);
  });

  it('has no keys for arguments that are not an object', () => {
    expect(toolInputKeys([1, 2])).toBeUndefined();
    expect(toolInputKeys('text')).toBeUndefined();
    expect(toolInputKeys(null)).toBeUndefined();
    expect(toolInputKeys({})).toEqual([]);
  });
});
