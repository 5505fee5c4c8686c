import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { elementApi, manifestFile, manifestText } from '../scripts/custom-elements.mjs';
import { AskseamQuestionsElement } from './element.js';

const source = (name: string): string => readFileSync(new URL(`./${name}`, import.meta.url), 'utf8');
const sourceFiles = readdirSync(new URL('.', import.meta.url)).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
const names = (list: { name: string }[]): string[] => list.map((each) => each.name).sort();
const matches = (text: string, pattern: RegExp): string[] => [...new Set([...text.matchAll(pattern)].map((match) => match[1]!))].sort();

describe('custom-elements.json', () => {
  it('is exactly what scripts/custom-elements.mjs builds (run it after changing the element’s API)', () => {
    expect(readFileSync(manifestFile, 'utf8')).toBe(manifestText());
  });

  it('is declared in package.json for tools and exported for bundlers', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { customElements: string; exports: Record<string, unknown> };
    expect(manifest.customElements).toBe('custom-elements.json');
    expect(manifest.exports['./custom-elements.json']).toBe('./custom-elements.json');
  });
});

// The declared API against the element's source, so a new attribute, event or part cannot be
// left out of the manifest.
describe('the declared element API matches the element', () => {
  it('lists the attributes the element observes', () => {
    expect(names(elementApi.attributes)).toEqual([...AskseamQuestionsElement.observedAttributes].sort());
  });

  it('lists the public properties (accessors) of the element', () => {
    const prototype = AskseamQuestionsElement.prototype;
    const accessors = Object.getOwnPropertyNames(prototype).filter((name) => {
      const descriptor = Object.getOwnPropertyDescriptor(prototype, name);
      return descriptor?.get !== undefined && descriptor.set !== undefined;
    });
    expect(names(elementApi.properties)).toEqual(accessors.sort());
  });

  it('lists the events the element dispatches, with the detail types the typings give them', () => {
    // The shell emits pendingchange; the card controllers emit the rest through the context's emit.
    const emitted = matches(sourceFiles.map(source).join('\n'), /emit\('(askseam-[a-z-]+)'/g);
    const typed = source('element-types.ts');
    const eventMap = typed.slice(typed.indexOf('interface AskseamQuestionsEventDetails'));
    expect(names(elementApi.events)).toEqual(emitted);
    for (const event of elementApi.events) expect(eventMap).toContain(`'${event.name}': ${event.detail};`);
  });

  it('lists the CSS parts the element renders', () => {
    const parts = matches(sourceFiles.map(source).join('\n'), /part: '([a-z-]+)'/g);
    expect(names(elementApi.cssParts)).toEqual(parts);
  });

  it('lists the custom properties the styles read, with their light defaults', () => {
    const styles = source('styles.ts');
    expect(names(elementApi.cssProperties)).toEqual(matches(styles, /var\((--askseam-[a-z-]+)/g));
    for (const property of elementApi.cssProperties.filter((each) => /^(#[0-9a-f]+|\d+px)$/.test(each.default))) {
      expect(styles).toContain(`var(${property.name}, ${property.default}`);
    }
  });
});
