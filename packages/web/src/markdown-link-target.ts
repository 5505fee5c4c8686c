// What follows a `]`: an inline `(destination "title")`, a `[label]` reference, or nothing (a
// shortcut reference), as the href and title of the link it makes. Every `]` asks, so nothing here
// may read far: a destination's end comes from an index of the paragraph's parentheses built once
// (ParenIndex), a title's closing quote from a remembered search (markdown-scan.ts), and a label is
// only looked up when it can be one (at most 999 characters, no bracket inside).
import type { LinkDefinitions } from './markdown-blocks.js';
import { normaliseLabel } from './markdown-blocks.js';
import { decodeEntity } from './markdown-entities.js';
import { isEscaped, type Searches } from './markdown-scan.js';

export interface LinkTarget {
  href: string | undefined;
  title: string | undefined;
  /** Where the source continues after the target. */
  end: number;
}

/** A link destination or title longer than this is not one (the text stays text). */
export const maxDestinationLength = 4096;
const fullReference = /\[((?:[^\\[\]]|\\.){0,999})\]/y;
const angleDestination = /<((?:[^<>\n\\]|\\.){0,4096})>/y;
const destinationStop = /[\s\x00-\x1f]/;

/**
 * Where a bare destination starting at each position ends, for one paragraph. A destination runs to
 * the first space or control character, or to the first `)` its own parentheses do not balance;
 * it is one only if its parentheses balance where it stops. With the running depth of unescaped
 * parentheses from the paragraph's start, the `)` that ends a destination starting at `s` is the
 * first place the depth falls below its value at `s`: one pass from the right finds that for every
 * position at once, so each `](` costs a lookup instead of a scan of the rest of the paragraph.
 */
export interface ParenIndex {
  /** The closing `)` of a destination from `start`, or the length when there is none. */
  closeOf(start: number): number;
  /** Whether the parentheses between `start` and `end` balance. */
  balanced(start: number, end: number): boolean;
}

export function parenIndex(source: string): ParenIndex {
  const length = source.length;
  // depth[i]: unescaped `(` minus `)` before index i.
  const depth = new Int32Array(length + 1);
  for (let index = 0; index < length; index += 1) {
    const char = source[index];
    depth[index + 1] = depth[index]! + ((char === '(' || char === ')') && !isEscaped(source, index) ? (char === '(' ? 1 : -1) : 0);
  }
  // close[s]: index of the `)` that closes a destination from s. nearest[d + length + 1]: the
  // smallest index seen so far (going left) whose depth is d.
  const close = new Int32Array(length + 1);
  const nearest = new Int32Array(2 * length + 3).fill(-1);
  for (let start = length; start >= 0; start -= 1) {
    const below = nearest[depth[start]! + length]!;
    close[start] = below < 0 ? length : below - 1;
    nearest[depth[start]! + length + 1] = start;
  }
  return { closeOf: (start) => close[start]!, balanced: (start, end) => depth[start] === depth[end] };
}

/** The inputs of one paragraph that targets are read from. */
export interface TargetContext {
  source: string;
  find: Searches;
  parens: () => ParenIndex;
  definitions: LinkDefinitions;
}

/**
 * The target after the `]` at `after - 1`; `label` is the link text when it can be a reference
 * label (undefined when it is too long or holds a bracket, so it can match no definition).
 */
export function linkTarget(context: TargetContext, after: number, label: string | undefined): LinkTarget | undefined {
  const { source, definitions } = context;
  if (source[after] === '(') {
    const inline = inlineTarget(context, after + 1);
    if (inline) return inline;
  }
  let end = after;
  fullReference.lastIndex = after;
  const reference = fullReference.exec(source);
  if (reference) {
    if (reference[1] !== '') label = reference[1]!;
    end = after + reference[0].length;
  }
  if (label === undefined || definitions.size === 0) return undefined;
  const definition = definitions.get(normaliseLabel(label));
  if (!definition) return undefined;
  return { href: cleanDestination(definition.href), title: definition.title === undefined ? undefined : unescapeText(definition.title), end };
}

function inlineTarget(context: TargetContext, start: number): LinkTarget | undefined {
  const { source, find } = context;
  let index = skipSpace(source, start);
  let destination: string;
  if (source[index] === '<') {
    // Bounded by the next <, > or newline: the next `](<` lies beyond it.
    angleDestination.lastIndex = index;
    const match = angleDestination.exec(source);
    if (!match) return undefined;
    destination = match[1]!;
    index += match[0].length;
  } else {
    const from = index;
    const space = find(destinationStop, from);
    const stop = space === -1 ? source.length : space;
    const close = context.parens().closeOf(from);
    const end = Math.min(stop, close);
    if (end - from >= maxDestinationLength || (end === stop && !context.parens().balanced(from, end))) return undefined;
    destination = source.slice(from, end);
    index = end;
  }
  const beforeTitle = index;
  index = skipSpace(source, index);
  let title: string | undefined;
  const opening = source[index];
  if (index > beforeTitle && (opening === '"' || opening === "'" || opening === '(')) {
    const closing = find(opening === '(' ? /\)/ : opening === '"' ? /"/ : /'/, index + 1, true);
    if (closing === -1 || closing - index > maxDestinationLength) return undefined;
    title = unescapeText(source.slice(index + 1, closing));
    index = skipSpace(source, closing + 1);
  }
  if (source[index] !== ')') return undefined;
  return { href: destination === '' ? '' : cleanDestination(destination), title, end: index + 1 };
}

function skipSpace(source: string, index: number): number {
  while (index < source.length && /[ \t\n]/.test(source[index]!)) index += 1;
  return index;
}

/** Backslash escapes and entities of link titles and destinations, as characters. */
export function unescapeText(text: string): string {
  return text.replace(/\\([!-/:-@[-`{-~])|&(?:#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});/g, (match, escaped: string | undefined) => escaped ?? decodeEntity(match) ?? match);
}

/**
 * A destination as the href it becomes: escapes and entities resolved, then percent-encoded like
 * marked does (so `jav&#x61;script:` is checked as the `javascript:` it is). Undefined when it
 * cannot be encoded (a lone surrogate).
 */
export function cleanDestination(destination: string, unescape = true): string | undefined {
  const text = unescape ? unescapeText(destination) : destination;
  try {
    return encodeURI(text).replace(/%25/g, '%');
  } catch {
    return undefined;
  }
}
