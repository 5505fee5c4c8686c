import { revealBidiControls } from '@askseam/user-questions';

// Control characters other than the line break (ESC sequences, carriage return, backspace, C1)
// would let text the model wrote move the cursor and overwrite lines the terminal printed before
// it, such as the tool call of an approval. They are printed as `\uXXXX` escapes instead, with the
// directional formatting characters.
const controls = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;

/** `text` as it may go to a TTY: every control but `\n`, and every bidi control, shown as an escape. */
export function terminalText(text: string): string {
  return revealBidiControls(text.replace(/\r\n/g, '\n')).replace(controls, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
