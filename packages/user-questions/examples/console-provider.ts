// A complete user-question provider: it asks each question on a terminal and reads the reply.
// Register it with `userQuestions.registerProvider(createConsoleProvider())`.
import { createInterface, type Interface } from 'node:readline/promises';
import {
  UserQuestionError,
  type AskUserQuestionAnswerItem,
  type AskUserQuestionItem,
  type UserQuestionProvider,
} from '@askseam/user-questions';

export interface ConsoleProviderOptions {
  /** Where the human types. Defaults to the process's stdin. */
  input?: NodeJS.ReadableStream;
  /** Where the questions are printed. Defaults to the process's stdout. */
  output?: NodeJS.WritableStream;
}

/**
 * Replies, one line per question:
 *   `2` or `1,3`   the numbered option(s)
 *   any other text a custom answer in the user's own words
 *   an empty line  the option marked "(Recommended)", or a skip when there is none
 *   `/cancel`      dismiss the whole request (the ask rejects with ASK_CANCELLED)
 */
export function createConsoleProvider(options: ConsoleProviderOptions = {}): UserQuestionProvider {
  const { input = process.stdin, output = process.stdout } = options;
  return {
    async ask({ questions, signal }) {
      const terminal = createInterface({ input, output, terminal: false });
      try {
        const answers: AskUserQuestionAnswerItem[] = [];
        // One at a time, in order: the seam checks that answers[i] belongs to questions[i].
        for (const question of questions) answers.push(await askOne(terminal, output, question, signal));
        return { answers };
      } finally {
        // Also runs when the signal aborts the wait, so no listener stays on the input stream.
        terminal.close();
      }
    },
  };
}

async function askOne(
  terminal: Interface,
  output: NodeJS.WritableStream,
  question: AskUserQuestionItem,
  signal: AbortSignal | undefined,
): Promise<AskUserQuestionAnswerItem> {
  output.write(`\n${question.header ? `[${question.header}] ` : ''}${question.question}\n`);
  const offered = question.options ?? [];
  offered.forEach((option, i) => output.write(`  ${i + 1}. ${option.label}${option.description ? ` — ${option.description}` : ''}\n`));

  for (;;) {
    // The seam aborts this signal on the caller's abort or on timeoutMs; stop waiting for input then.
    const line = await terminal.question('> ', signal ? { signal } : {});
    const answer = readReply(question, line.trim());
    if (answer) return answer;
    output.write(`Type ${question.multiSelect ? 'one or more numbers (1,3)' : 'one number'} from 1 to ${offered.length}, or your own answer.\n`);
  }
}

/** The answer a reply stands for, or `undefined` when the reply must be asked again. */
function readReply(question: AskUserQuestionItem, reply: string): AskUserQuestionAnswerItem | undefined {
  const { id } = question;
  const labels = (question.options ?? []).map((option) => option.label);
  if (reply === '/cancel') throw new UserQuestionError('ASK_CANCELLED', 'The user dismissed the questions.');
  if (reply === '') {
    // Send the label exactly as offered, suffix included: the seam refuses a label it never offered.
    const recommended = labels.find((label) => /\(recommended\)\s*$/i.test(label));
    return { id, selected: recommended ? [recommended] : [] };
  }
  if (labels.length > 0 && /^\d+(\s*,\s*\d+)*$/.test(reply)) {
    const picked = [...new Set(reply.split(',').map((n) => labels[Number(n) - 1]))];
    if (picked.includes(undefined) || (!question.multiSelect && picked.length > 1)) return undefined;
    return { id, selected: picked as string[] };
  }
  return { id, selected: [], custom: reply };
}
