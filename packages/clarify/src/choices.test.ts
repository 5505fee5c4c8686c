import { describe, expect, it } from 'vitest';
import { normalizeChoices } from './choices.js';

// What models really put where a list of choices belongs, and what it is read as.
const table: [string, unknown, string[]][] = [
  ['a clean list', ['React', 'Vue', 'Svelte'], ['React', 'Vue', 'Svelte']],
  ['the list as a JSON string', '["React","Vue"]', ['React', 'Vue']],
  ['the list as a JSON string with spaces around it', '  [ "React", "Vue" ]  ', ['React', 'Vue']],
  ['a single string', 'React', ['React']],
  ['a single string that is not JSON though it starts with a bracket', '[draft] keep going', ['[draft] keep going']],
  ['one choice per line with bullets', '- React\n- Vue\n* Svelte', ['React', 'Vue', 'Svelte']],
  ['numbered lines', '1. React\n2) Vue\n3、Svelte', ['React', 'Vue', 'Svelte']],
  ['an object of leaves', { a: 'React', b: 'Vue' }, ['React', 'Vue']],
  ['an object of leaves as JSON text', '{"first":"React","second":"Vue"}', ['React', 'Vue']],
  ['a nested object of leaves', { web: { a: 'React', b: 'Vue' }, mobile: ['Flutter'] }, ['React', 'Vue', 'Flutter']],
  ['option objects with label, value, name, text or title', [{ label: 'React' }, { value: 'Vue' }, { name: 'Svelte' }, { text: 'Solid' }, { title: 'Qwik' }], ['React', 'Vue', 'Svelte', 'Solid', 'Qwik']],
  ['numbers and booleans', [1, 2.5, true, false], ['1', '2.5', 'true', 'false']],
  ['blanks, nulls and non-finite numbers dropped', ['React', '', '  ', null, undefined, Number.NaN, 'Vue'], ['React', 'Vue']],
  ['duplicates kept once, first spelling wins', ['React', 'react', ' React ', 'ＲＥＡＣＴ', 'Vue'], ['React', 'Vue']],
  ['labels trimmed', ['  React  ', '\tVue\n'], ['React', 'Vue']],
  ['null', null, []],
  ['undefined', undefined, []],
  ['an empty list', [], []],
  ['an empty string', '', []],
  ['a function or a symbol', [() => 1, Symbol('x')], []],
];

describe('normalizeChoices', () => {
  it.each(table)('reads %s', (_name, raw, expected) => {
    expect(normalizeChoices(raw)).toEqual(expected);
  });

  it('stops at a depth no real list of choices reaches', () => {
    expect(normalizeChoices([[[[[['deep']]]]], 'React'])).toEqual(['React']);
  });
});
