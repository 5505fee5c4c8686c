import { toolInputText, type AskUserQuestionItem } from '@askseam/user-questions';
import { Actions, Button, Card, CardText, markdownToPlainText, type CardChild, type CardElement } from 'chat';
import { controlActionId, encodeControl } from './codec.js';
import { answersByClick, optionDisplay, replyHint, shorten } from './display.js';

// A question as a Chat SDK card, for every platform but Slack (which gets Block Kit built by hand,
// slack-blocks.ts): the adapter turns it into a Telegram inline keyboard, a Teams Adaptive Card, a
// Google Chat card. A single-choice question is answered by a button; everything else by a reply.

/** Display cap for a button label; platforms cut longer ones themselves, less tidily. */
const buttonText = 40;

/** A fenced code block that the content cannot close: its fence is longer than any run of backticks inside. */
export function inertCode(text: string): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (match) => match[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}\n${text}\n${fence}`;
}

function titleOf(questions: readonly AskUserQuestionItem[], urgency: string | undefined): string {
  const first = questions[0];
  const title = first?.intent?.kind === 'tool-approval' ? (first.header ?? 'Tool approval') : questions.length === 1 ? (first?.header ?? 'Question') : 'Questions';
  return urgency === 'high' ? `Urgent: ${title}` : title;
}

function questionChildren(question: AskUserQuestionItem, index: number, batch: boolean): CardChild[] {
  const children: CardChild[] = [CardText(`${batch ? `${index + 1}. ` : ''}${question.question}`)];
  const intent = question.intent;
  if (intent?.kind === 'tool-approval') {
    const lines = [`Tool: ${intent.tool.name}`];
    if (intent.tool.description !== undefined) lines.push(`The agent says it does (unverified): ${intent.tool.description}`);
    children.push(CardText(inertCode(lines.join('\n'))));
    children.push(CardText(inertCode(toolInputText(intent.tool.input) ?? '(arguments cannot be shown)')));
  }
  if (question.detail !== undefined) children.push(CardText(shorten(question.detail, 3000)));
  if (batch && (question.options?.length ?? 0) > 0) {
    children.push(CardText(question.options!.map((option, i) => `${i + 1}. ${optionDisplay(option.label, buttonText).text}`).join('\n')));
  }
  return children;
}

export function chatQuestionCard(key: string, questions: readonly AskUserQuestionItem[], urgency?: string, progress?: string): CardElement {
  const batch = questions.length > 1;
  const children: CardChild[] = questions.flatMap((question, index) => questionChildren(question, index, batch));
  // A quorum approval's progress ("1 of 2 approvals (by @alex); …"), above the controls.
  if (progress !== undefined) children.push(CardText(progress));
  if (answersByClick(questions)) {
    const question = questions[0]!;
    const approve = question.intent?.approve;
    children.push(
      Actions(
        (question.options ?? []).map((option, index) => {
          const shown = optionDisplay(option.label, buttonText);
          const style = approve !== undefined ? (option.label === approve ? 'primary' : 'danger') : shown.recommended ? 'primary' : 'default';
          return Button({ id: controlActionId({ verb: 'o', question: 0, option: index }), label: shown.text, value: encodeControl({ key, verb: 'o', question: 0, option: index }), style });
        }),
      ),
    );
  }
  children.push(CardText(replyHint(questions).replace('in this thread', 'to this message')));
  return Card({ title: titleOf(questions, urgency), children });
}

export function chatSettledCard(questions: readonly AskUserQuestionItem[], outcomeText: string): CardElement {
  // Plain words only: an edited Telegram card is re-rendered from its fallback text, where nested
  // emphasis comes out unbalanced.
  const lines = questions.map((question, index) => `${questions.length > 1 ? `${index + 1}. ` : ''}${markdownToPlainText(question.question)}`);
  return Card({ children: [CardText(lines.join('\n')), CardText(outcomeText)] });
}
