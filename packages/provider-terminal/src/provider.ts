import type { AskUserQuestionAnswer, AskUserQuestionRequest, UserQuestionProvider } from '@askseam/user-questions';
import { detectLang, type TextLang } from '@askseam/text';
import { LineReader } from './lines.js';
import { askAsText } from './plain.js';
import { askAtTty } from './tty.js';

export interface TerminalProviderOptions {
  /** Where the person types. Default: `process.stdin`. */
  input?: NodeJS.ReadableStream;
  /** Where the questions appear. Default: `process.stdout`. */
  output?: NodeJS.WritableStream;
  /**
   * `tty`: interactive prompts; `text`: numbered text and typed replies; `auto` (default): `tty`
   * when both input and output are terminals, else `text` (a pipe, a file, CI).
   */
  mode?: 'auto' | 'tty' | 'text';
  /** The language of the prompts. Default: that of the questions (`zh` when they contain Chinese). */
  lang?: TextLang;
}

/** A provider that can also let go of the terminal's input when the program is done with it. */
export interface TerminalProvider extends UserQuestionProvider {
  /** Stop reading the input (text mode keeps one reader across asks). Idempotent. */
  close(): void;
}

/**
 * Answer user questions at the terminal. At a TTY each question is an interactive prompt (arrow
 * keys or numbers, space to tick several, your own words, skip, Cancel or Ctrl+C → ASK_CANCELLED);
 * over a pipe the questions are printed as numbered text and the reply is read as text. The abort
 * signal of each request (the caller's abort or the seam's timeout) ends the prompt at once.
 */
export function createTerminalProvider(options: TerminalProviderOptions = {}): TerminalProvider {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const interactive = options.mode === 'tty' || (options.mode !== 'text' && isTerminal(input) && isTerminal(output));
  let lines: LineReader | undefined;
  // One ask at a time: two prompts on one terminal would fight over the keys.
  let queue: Promise<unknown> = Promise.resolve();

  const askNow = (request: AskUserQuestionRequest): Promise<AskUserQuestionAnswer> => {
    const lang = options.lang ?? detectLang(request.questions);
    if (interactive) return askAtTty(request, { input, output, signal: request.signal, lang });
    lines ??= new LineReader(input);
    return askAsText(request, lines, output, lang);
  };

  return {
    ask(request) {
      const asked = queue.then(() => askNow(request));
      queue = asked.catch(() => undefined);
      return asked;
    },
    close() {
      lines?.close();
    },
  };
}

function isTerminal(stream: NodeJS.ReadableStream | NodeJS.WritableStream): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true;
}
