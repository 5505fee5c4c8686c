import { checkbox, input, password, select } from '@inquirer/prompts';
import { isBlankText, isMultiSelect, isSensitiveQuestion, UserQuestionError, type AskUserQuestionAnswer, type AskUserQuestionAnswerItem, type AskUserQuestionItem, type AskUserQuestionRequest } from '@askseam/user-questions';
import { parseTextReply, type TextLang } from '@askseam/text';
import { approvalLines, askApprovalAtTty, terminalApprovalOf } from './approval.js';
import { terminalMessages, type TerminalMessages } from './messages.js';

interface Io {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  signal: AbortSignal | undefined;
  lang: TextLang;
}

type Choice = { pick: string } | { own: true } | { skip: true } | { cancel: true } | { checked: boolean };

/**
 * Ask at a TTY, one question after another: a list to move through with the arrow keys (or jump
 * to by number) for a choice, checkboxes for several, a line of text for a value. Every list
 * offers the person's own answer, a skip where the question allows one, and Cancel; Ctrl+C
 * cancels anywhere. A typed value is read by the text channel's rules, so "2026/8/20" or "yes"
 * work here as in a chat.
 */
export async function askAtTty(request: AskUserQuestionRequest, io: Io): Promise<AskUserQuestionAnswer> {
  const messages = terminalMessages[io.lang];
  const answers: AskUserQuestionAnswerItem[] = [];
  const total = request.questions.length;
  try {
    for (const [index, question] of request.questions.entries()) {
      io.output.write(preamble(question, index, total, messages));
      answers.push(await askOne(question, io, messages));
    }
  } catch (error) {
    throw promptFailure(error, messages);
  }
  return { answers };
}

function preamble(question: AskUserQuestionItem, index: number, total: number, messages: TerminalMessages): string {
  const place = total > 1 ? `(${index + 1}/${total}) ` : '';
  const header = question.header ? `[${question.header}] ` : '';
  const lines = ['', `${place}${header}`.trimEnd()];
  const approval = terminalApprovalOf(question);
  if (approval !== undefined) lines.push(...approvalLines(question, approval, messages));
  else if (question.detail) lines.push(question.detail);
  if (index === 0) lines.push(messages.cancelHint);
  return `${lines.filter((line, i) => i === 0 || line !== '').join('\n')}\n`;
}

async function askOne(question: AskUserQuestionItem, io: Io, messages: TerminalMessages): Promise<AskUserQuestionAnswerItem> {
  const { id } = question;
  const approval = terminalApprovalOf(question);
  if (approval !== undefined) return askApprovalAtTty(question, approval, io, messages);
  const context = { input: io.input, output: io.output, clearPromptOnDone: false, ...(io.signal ? { signal: io.signal } : {}) };
  const message = question.required === true ? `${question.question} ${messages.required}` : question.question;
  const optional: Choice[] = question.required === true ? [] : [{ skip: true }];
  const options = question.options ?? [];

  if (question.input?.kind === 'checkbox') {
    const choice = await select<Choice>({ message, choices: [entry({ checked: true }, messages.yes), entry({ checked: false }, messages.no), ...extras(optional, messages)] }, context);
    if ('checked' in choice) return { id, selected: [], custom: choice.checked ? 'true' : 'false' };
    return settle(choice, id, question, io, messages);
  }
  if (options.length > 0 && isMultiSelect(question)) {
    const own = '\u0000own';
    const picked = await checkbox<string>(
      {
        message,
        choices: [...options.map((option) => ({ name: option.label, value: option.label, ...(option.description ? { description: option.description } : {}) })), { name: messages.ownAnswer, value: own }],
        required: question.required === true,
      },
      context,
    );
    const selected = picked.filter((label) => label !== own);
    if (!picked.includes(own)) return { id, selected };
    return { id, selected, custom: await ownWords(question, io, messages) };
  }
  if (options.length > 0) {
    const choices = [
      ...options.map((option) => ({ name: option.label, value: { pick: option.label } as Choice, ...(option.description ? { description: option.description } : {}) })),
      ...extras([{ own: true }, ...optional], messages),
    ];
    return settle(await select<Choice>({ message, choices }, context), id, question, io, messages);
  }
  return typedValue(question, message, io, messages);
}

function entry(value: Choice, name: string) {
  return { name, value };
}

function extras(choices: Choice[], messages: TerminalMessages) {
  const named = choices.map((choice) => entry(choice, 'own' in choice ? messages.ownAnswer : 'skip' in choice ? messages.skip : messages.cancel));
  return [...named, entry({ cancel: true }, messages.cancel)];
}

async function settle(choice: Choice, id: string, question: AskUserQuestionItem, io: Io, messages: TerminalMessages): Promise<AskUserQuestionAnswerItem> {
  if ('pick' in choice) return { id, selected: [choice.pick] };
  if ('skip' in choice) return { id, selected: [] };
  if ('own' in choice) return { id, selected: [], custom: await ownWords(question, io, messages) };
  throw new UserQuestionError('ASK_CANCELLED', messages.cancelledByUser);
}

/** The person's own words instead of (or beside) the options: anything but blank. */
async function ownWords(question: AskUserQuestionItem, io: Io, messages: TerminalMessages): Promise<string> {
  const context = { input: io.input, output: io.output, clearPromptOnDone: false, ...(io.signal ? { signal: io.signal } : {}) };
  return input({ message: messages.ownAnswerPrompt, validate: (text) => !isBlankText(text) || messages.blank }, context);
}

/** A value typed on one line, read and checked by the text channel's rules for the question's kind. */
async function typedValue(question: AskUserQuestionItem, message: string, io: Io, messages: TerminalMessages): Promise<AskUserQuestionAnswerItem> {
  const context = { input: io.input, output: io.output, clearPromptOnDone: false, ...(io.signal ? { signal: io.signal } : {}) };
  const read = (text: string) => parseTextReply([question], text, { lang: io.lang });
  const hint = question.placeholder ? ` (${question.placeholder})` : '';
  const prompt = {
    message: `${message}${hint}`,
    validate: (value: string) => {
      if (value.trim() === '/cancel') return true;
      const result = read(value);
      return result.ok || (result.problems[0]?.message ?? messages.blank);
    },
  };
  // A secret (a password, an API key…) is echoed as stars: it must not stay on the screen or in the scrollback.
  const text = isSensitiveQuestion(question) ? await password({ ...prompt, mask: '*' }, context) : await input(prompt, context);
  if (text.trim() === '/cancel') throw new UserQuestionError('ASK_CANCELLED', messages.cancelledByUser);
  const result = read(text);
  // validate() let only readable values through, so this holds; the seam checks the answer again.
  return result.ok ? result.answer.answers[0]! : { id: question.id, selected: [] };
}

/** Ctrl+C (or a closed terminal) is the person dismissing the questions; an abort keeps its reason. */
function promptFailure(error: unknown, messages: TerminalMessages): unknown {
  const name = error instanceof Error ? error.name : '';
  if (name === 'ExitPromptError') return new UserQuestionError('ASK_CANCELLED', messages.cancelledByUser, { cause: error });
  if (name === 'AbortPromptError') return (error as Error).cause ?? error;
  return error;
}
