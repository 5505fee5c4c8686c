// How every UI shows a tool call awaiting approval: as text that reads exactly as it will be used.
// One definition, so the browser card, the text channel and the terminal show the same characters.

// Directional formatting characters (ALM, LRM, RLM, the embeddings and overrides, the isolates):
// invisible, yet they reorder what follows, so "invoice\u202Efdp.exe" reads "invoiceexe.pdf".
const bidiControls = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every directional formatting character written as its `\uXXXX` escape (also valid inside a JSON string). */
export function revealBidiControls(text: string): string {
  return text.replace(bidiControls, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// Characters that draw nothing (zero-width space and joiners, word joiner, invisible operators, BOM,
// soft hyphen, fillers, the tag characters U+E0000–E007F as their surrogate pairs): in a tool's
// arguments they would make "command\u200B" and "command" look the same, so they are escaped too.
const invisibleCharacters = /[\u00ad\u034f\u115f\u1160\u180e\u200b-\u200d\u2060-\u2064\u3164\ufeff\uffa0]|\udb40[\udc00-\udc7f]/g;

/** A tool call's text as shown for approval: directional and invisible characters as `\uXXXX` escapes (valid inside JSON strings). */
function revealHidden(text: string): string {
  const escape = (chars: string) => Array.from({ length: chars.length }, (_, index) => `\\u${chars.charCodeAt(index).toString(16).padStart(4, '0')}`).join('');
  return revealBidiControls(text).replace(invisibleCharacters, escape);
}

/**
 * A tool's arguments as indented JSON text (two spaces), with directional formatting and invisible
 * characters escaped: show it as text, never as Markdown or HTML. `undefined` for a value with no
 * JSON form (the seam never lets one through).
 */
export function toolInputText(input: unknown): string | undefined {
  const json = JSON.stringify(input, null, 2) as string | undefined;
  return json === undefined ? undefined : revealHidden(json);
}

/** Longer key names are shortened in the middle for the key list: both ends of a name stay readable. */
const keyNameMaxLength = 40;

/**
 * The top-level key names of a tool's arguments, in JSON order, each as it reads inside the JSON
 * text (escaped like `toolInputText`) and shortened in the middle past 40 characters; `undefined`
 * when the arguments are not an object. Every UI lists them all beside the arguments, so padding an
 * input with harmless keys can fold the JSON but never hide the key that matters.
 */
export function toolInputKeys(input: unknown): string[] | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  return Object.keys(input).map((key) => shortenMiddle(revealHidden(JSON.stringify(key).slice(1, -1))));
}

function shortenMiddle(name: string): string {
  // Code points, so a cut never splits a surrogate pair.
  const chars = Array.from(name);
  if (chars.length <= keyNameMaxLength) return name;
  const tail = 15;
  return `${chars.slice(0, keyNameMaxLength - tail - 1).join('')}…${chars.slice(-tail).join('')}`;
}
