import { select, input } from '@inquirer/prompts';
import { toolInputKeys, toolInputText, UserQuestionError, type AskUserQuestionAnswerItem, type AskUserQuestionItem, type ToolApprovalIntent } from '@askseam/user-questions';
import { terminalText } from './inert.js';
import type { TerminalMessages } from './messages.js';

// An approval at a TTY (docs/approvals.md): what will run (the tool, every top-level key named,
// the arguments as indented JSON) is printed first, then the model's words (what the tool does,
// why) indented under a label that says nobody checked them, so a reason that writes its own
// "Arguments:" cannot pass for the real ones; the list offers Approve, Deny, Deny with a reason,
// and Cancel. Without a TTY the text channel renders and reads approvals itself (@askseam/text).

interface PromptIo {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  signal: AbortSignal | undefined;
}

/** The tool-approval intent of `question` when the terminal shows it as an approval, else `undefined`. */
export function terminalApprovalOf(question: AskUserQuestionItem): ToolApprovalIntent | undefined {
  const intent = question.intent;
  if (intent?.kind !== 'tool-approval' || question.multiSelect === true) return undefined;
  if (question.input !== undefined && question.input.kind !== 'select') return undefined;
  const options = question.options ?? [];
  if (options.length > 2 || !options.some((option) => option.label === intent.approve)) return undefined;
  return toolInputText(intent.tool.input) === undefined ? undefined : intent;
}

/** The lines printed above the prompt: the tool call as inert text, then the model's words; control and bidi characters shown as escapes. */
export function approvalLines(question: AskUserQuestionItem, intent: ToolApprovalIntent, messages: TerminalMessages): string[] {
  const lines = [`${messages.approvalTool}${terminalText(intent.tool.name)}`];
  const keys = toolInputKeys(intent.tool.input);
  if (keys !== undefined) lines.push(messages.approvalKeys(keys));
  lines.push(messages.approvalArguments, ...toolInputText(intent.tool.input)!.split('\n').map((line) => `  ${line}`));
  const description = intent.tool.description;
  if (description === undefined && !question.detail) return lines;
  const indent = (block: string, first: string, rest: string): string[] => block.split('\n').map((line, index) => (line === '' ? '' : `${index === 0 ? first : rest}${line}`));
  lines.push(messages.approvalAgent);
  if (description !== undefined) lines.push(...indent(terminalText(description), `  ${messages.approvalDescription}`, '    '));
  if (question.detail) lines.push(`  ${messages.approvalReason}`, ...indent(terminalText(question.detail), '    ', '    '));
  return lines;
}

type Choice = { pick: string } | { reason: true } | { cancel: true };

/** Approve, Deny, or Deny with a reason (the question's custom answer); Cancel dismisses. */
export async function askApprovalAtTty(question: AskUserQuestionItem, intent: ToolApprovalIntent, io: PromptIo, messages: TerminalMessages): Promise<AskUserQuestionAnswerItem> {
  const context = { input: io.input, output: io.output, clearPromptOnDone: false, ...(io.signal ? { signal: io.signal } : {}) };
  const deny = (question.options ?? []).find((option) => option.label !== intent.approve)?.label;
  const choices: { name: string; value: Choice }[] = [
    { name: intent.approve, value: { pick: intent.approve } },
    ...(deny === undefined ? [] : [{ name: deny, value: { pick: deny } }]),
    { name: messages.denyWithReason, value: { reason: true } },
    { name: messages.cancel, value: { cancel: true } },
  ];
  const choice = await select<Choice>({ message: terminalText(question.question), choices }, context);
  if ('pick' in choice) return { id: question.id, selected: [choice.pick] };
  if ('cancel' in choice) throw new UserQuestionError('ASK_CANCELLED', messages.cancelledByUser);
  const reason = await input({ message: messages.reasonPrompt, validate: (text) => text.trim() !== '' || messages.blank }, context);
  return { id: question.id, selected: [], custom: reason.trim() };
}
