// What counts as blank text and what counts as a line break: one rule for the seam's answer check,
// the browser element, the text channel and the terminal, so that none of them accepts what another
// refuses.

// Nothing a person could see: Unicode white space (including U+0085, which `trim()` and `\s` miss),
// control characters, format characters (U+200B zero width space, U+2060 word joiner, U+FEFF, soft
// hyphen, bidi marks …) and the other default-ignorable code points (variation selectors, Hangul
// fillers, tag characters …). An answer made only of these looks empty on every screen.
const invisibleOnly = /^[\p{White_Space}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]*$/u;

// Unicode's mandatory breaks (UAX #14 classes BK, CR, LF and NL): LF, VT, FF, CR, NEL, U+2028, U+2029.
const lineBreak = /[\n\v\f\r\u0085\u2028\u2029]/;

/** True when `text` shows nothing: empty, or only white space, control, format and other invisible characters. */
export function isBlankText(text: string): boolean {
  return invisibleOnly.test(text);
}

/** True when `text` holds a line break of any kind Unicode says must break a line (not only `\n` and `\r`). */
export function hasLineBreak(text: string): boolean {
  return lineBreak.test(text);
}
