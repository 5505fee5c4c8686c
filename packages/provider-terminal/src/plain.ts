import { isBlankText, UserQuestionError, type AskUserQuestionAnswer, type AskUserQuestionRequest } from '@askseam/user-questions';
import { parseTextReply, renderText, type TextLang } from '@askseam/text';
import type { LineReader } from './lines.js';
import { terminalMessages } from './messages.js';

/** How many replies a person (or a script) gets before the ask gives up. */
const attempts = 3;

/**
 * Ask without a TTY (stdin is a pipe or a file): print the questions as numbered text, read a reply
 * — one line for one question; for several, lines up to an empty line or the end of the input —
 * and read it with parseTextReply, naming any problem and reading again.
 */
export async function askAsText(request: AskUserQuestionRequest, lines: LineReader, output: NodeJS.WritableStream, lang: TextLang): Promise<AskUserQuestionAnswer> {
  const messages = terminalMessages[lang];
  const several = request.questions.length > 1;
  output.write(`${renderText(request, { lang })}\n${several ? `${messages.endOfReply}\n` : ''}`);
  for (let attempt = 1; attempt <= attempts; attempt++) {
    output.write('> ');
    const reply = await readReply(lines, { several, signal: request.signal });
    if (reply === undefined) throw new UserQuestionError('ASK_CANCELLED', messages.inputEnded);
    if (reply.trim() === '/cancel') throw new UserQuestionError('ASK_CANCELLED', messages.cancelledByUser);
    const result = parseTextReply(request, reply, { lang });
    if (result.ok) return result.answer;
    output.write(`${result.problems.map((problem) => `! ${problem.message}`).join('\n')}\n`);
  }
  throw new UserQuestionError('ASK_CANCELLED', messages.noUsableReply(attempts));
}

/** One reply: a line, or (for several questions) the lines up to an empty one. Undefined: input ended first. */
async function readReply(lines: LineReader, { several, signal }: { several: boolean; signal: AbortSignal | undefined }): Promise<string | undefined> {
  const read: string[] = [];
  for (;;) {
    const line = await lines.next(signal);
    if (line === undefined) return read.length > 0 ? read.join('\n') : undefined;
    // One question: an empty line is a skip. Several: blank lines before a reply are not its end.
    // Blank is the seam's rule: a line of zero-width spaces looks empty, so it ends a reply too.
    if (several && isBlankText(line) && read.length === 0) continue;
    if (!several || line.trim() === '/cancel') return line;
    if (isBlankText(line)) return read.join('\n');
    read.push(line);
  }
}
