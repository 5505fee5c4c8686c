import { renderText } from '@askseam/text';
import { toolInputText, type AskUserQuestionItem } from '@askseam/user-questions';
import { checkboxActionPrefix, controlActionId, encodeControl, type ControlVerb } from './codec.js';
import { controlOf, optionDisplay, replyHint, shorten } from './display.js';

// A question as Slack Block Kit, built by hand rather than through Chat SDK cards: Chat SDK cards
// have no checkboxes, and Slack refuses a whole message when one element is over a limit, so the
// limits are kept here, where the blocks are made, instead of discovered in production.

/** Slack's Block Kit limits this renderer keeps (api.slack.com/reference/block-kit). */
export const slackLimits = {
  blocks: 50,
  headerText: 150,
  sectionText: 3000,
  buttonText: 75,
  optionText: 75,
  optionDescription: 75,
  optionValue: 150,
  actionsElements: 25,
  selectOptions: 100,
  checkboxOptions: 10,
  contextText: 3000,
  /** All `markdown` blocks of one message together. */
  markdownTotal: 12000,
  fallbackText: 4000,
} as const;

export type SlackBlock = Record<string, unknown>;

export interface SlackCardInput {
  key: string;
  questions: readonly AskUserQuestionItem[];
  urgency?: 'low' | 'medium' | 'high' | undefined;
  /** A quorum approval's progress ("1 of 2 approvals (by @alex); …"), shown above the controls' hint. */
  progress?: string | undefined;
}

/**
 * Markdown goes in Slack's own `markdown` blocks, which Slack renders (the adapter's format
 * converter does the same for text). Their text counts against one budget per message.
 */
class MarkdownBudget {
  private left: number = slackLimits.markdownTotal;
  block(markdown: string): SlackBlock | undefined {
    const room = Math.min(slackLimits.sectionText, this.left);
    if (room < 20) return undefined;
    const text = shorten(markdown, room);
    this.left -= text.length;
    return { type: 'markdown', text };
  }
}

const plain = (text: string, max: number) => ({ type: 'plain_text', text: shorten(text, max), emoji: false });
const mrkdwnText = (text: string) => ({ type: 'mrkdwn', text: shorten(text, slackLimits.sectionText) });

function button(key: string, verb: ControlVerb, question: number, option: number, label: string, style?: 'primary' | 'danger'): SlackBlock {
  const element: SlackBlock = {
    type: 'button',
    action_id: controlActionId({ verb, question, option }),
    text: plain(label, slackLimits.buttonText),
    value: encodeControl({ key, verb, question, option }),
  };
  if (style !== undefined) element.style = style;
  return element;
}

function headerOf(questions: readonly AskUserQuestionItem[], urgency: SlackCardInput['urgency']): string {
  const first = questions[0];
  const title = first?.intent?.kind === 'tool-approval' ? (first.header ?? 'Tool approval') : questions.length === 1 ? (first?.header ?? 'Question') : 'Questions';
  return urgency === 'high' ? `Urgent: ${title}` : title;
}

/** The text blocks of one question: its words, its context, and for an approval the tool call as inert code. */
function questionBlocks(question: AskUserQuestionItem, index: number, batch: boolean, markdown: MarkdownBudget): SlackBlock[] {
  const blocks: SlackBlock[] = [];
  const number = batch ? `**${index + 1}.** ` : '';
  const text = markdown.block(number + question.question);
  blocks.push(text ?? { type: 'section', text: plain(number + question.question, slackLimits.sectionText) });
  const intent = question.intent;
  if (intent?.kind === 'tool-approval') {
    // The tool's name, description and arguments come from the model: shown as plain text and a
    // preformatted block, never as mrkdwn, so they cannot draw a link or a fake "Approved" line.
    const lines = [`Tool: ${intent.tool.name}`];
    if (intent.tool.description !== undefined) lines.push(`The agent says it does (unverified): ${intent.tool.description}`);
    blocks.push({ type: 'section', text: plain(lines.join('\n'), slackLimits.sectionText) });
    const args = toolInputText(intent.tool.input) ?? '(arguments cannot be shown)';
    blocks.push({
      type: 'rich_text',
      elements: [{ type: 'rich_text_preformatted', elements: [{ type: 'text', text: shorten(args, slackLimits.sectionText - 100) }] }],
    });
  }
  const detail = question.detail === undefined ? undefined : markdown.block(question.detail);
  if (detail !== undefined) blocks.push(detail);
  return blocks;
}

/** The controls of the single question of a card. */
function controlBlocks(key: string, question: AskUserQuestionItem): SlackBlock[] {
  const options = question.options ?? [];
  const intent = question.intent;
  const control = controlOf(question);
  if (control === 'buttons') {
    const approve = intent?.approve;
    const elements = options.map((option, index) => {
      const shown = optionDisplay(option.label, slackLimits.buttonText);
      const style = approve === undefined ? (shown.recommended ? 'primary' : undefined) : option.label === approve ? 'primary' : intent?.kind === 'tool-approval' ? 'danger' : undefined;
      return button(key, 'o', 0, index, shown.text, style);
    });
    if (intent?.kind === 'tool-approval') elements.push(button(key, 'r', 0, 0, 'Deny with a reason…'));
    else elements.push(button(key, 'm', 0, 0, intent?.kind === 'plan-review' ? 'Request changes…' : 'Other…'));
    return [{ type: 'actions', block_id: 'askseam.controls', elements }];
  }
  if (control === 'select' && options.length <= slackLimits.selectOptions) {
    return [
      {
        type: 'actions',
        block_id: 'askseam.controls',
        elements: [
          {
            type: 'static_select',
            action_id: controlActionId({ verb: 'o', question: 0, option: -1 }),
            placeholder: plain('Choose…', slackLimits.optionText),
            options: options.map((option, index) => ({
              text: plain(optionDisplay(option.label, slackLimits.optionText).text, slackLimits.optionText),
              value: encodeControl({ key, verb: 'o', question: 0, option: index }),
            })),
          },
          button(key, 'm', 0, 0, 'Other…'),
        ],
      },
    ];
  }
  if (control === 'checkboxes') {
    // Slack allows 10 options per checkbox group: longer lists get one group per ten.
    const groups: SlackBlock[] = [];
    for (let start = 0; start < options.length; start += slackLimits.checkboxOptions) {
      groups.push({
        type: 'checkboxes',
        action_id: `${checkboxActionPrefix}${start}`,
        options: options.slice(start, start + slackLimits.checkboxOptions).map((option, offset) => {
          const item: SlackBlock = { text: plain(optionDisplay(option.label, slackLimits.optionText).text, slackLimits.optionText), value: String(start + offset) };
          if (option.description !== undefined) item.description = plain(option.description, slackLimits.optionDescription);
          return item;
        }),
      });
    }
    const blocks: SlackBlock[] = [];
    for (let start = 0; start < groups.length; start += slackLimits.actionsElements - 1) {
      blocks.push({ type: 'actions', block_id: `askseam.choices.${start}`, elements: groups.slice(start, start + slackLimits.actionsElements - 1) });
    }
    blocks.push({ type: 'actions', block_id: 'askseam.controls', elements: [button(key, 's', 0, 0, 'Submit', 'primary'), button(key, 'm', 0, 0, 'Other…')] });
    return blocks;
  }
  return [{ type: 'actions', block_id: 'askseam.controls', elements: [button(key, 'm', 0, 0, 'Answer…', 'primary')] }];
}

/** Option lists of a batch, shown as text: a batch is answered in one form or one thread reply. */
function optionListText(question: AskUserQuestionItem): string | undefined {
  const options = question.options ?? [];
  if (options.length === 0) return undefined;
  return options.map((option, index) => `${index + 1}. ${optionDisplay(option.label, slackLimits.optionText).text}`).join('\n');
}

/** The whole card of a pending question: blocks within Slack's limits, and the notification text. */
export function slackQuestionCard(input: SlackCardInput): { blocks: SlackBlock[]; text: string } {
  const { key, questions } = input;
  const markdown = new MarkdownBudget();
  const header: SlackBlock = { type: 'header', text: plain(headerOf(questions, input.urgency), slackLimits.headerText) };
  const hint: SlackBlock = { type: 'context', elements: [{ type: 'plain_text', text: replyHint(questions) }] };
  const batch = questions.length > 1;
  const body: SlackBlock[] = [];
  questions.forEach((question, index) => {
    body.push(...questionBlocks(question, index, batch, markdown));
    const list = batch ? optionListText(question) : undefined;
    if (list !== undefined) body.push({ type: 'context', elements: [{ type: 'plain_text', text: shorten(list, slackLimits.contextText) }] });
  });
  const controls = batch ? [{ type: 'actions', block_id: 'askseam.controls', elements: [button(key, 'm', -1, 0, 'Answer…', 'primary')] }] : controlBlocks(key, questions[0]!);
  const text = shorten(renderText(questions), slackLimits.fallbackText);
  const progress: SlackBlock[] = input.progress === undefined ? [] : [{ type: 'context', elements: [{ type: 'plain_text', text: shorten(input.progress, slackLimits.contextText) }] }];
  let blocks = [header, ...body, ...progress, ...controls, hint];
  if (blocks.length > slackLimits.blocks) {
    // Too many questions for one block each: the batch as numbered text (askseam's own plain-text
    // rendering, within one section), answered in the form or a thread reply.
    const summary = { type: 'section', text: plain(renderText(questions, { budget: slackLimits.sectionText - 100 }), slackLimits.sectionText) };
    blocks = [header, summary, ...progress, { type: 'actions', block_id: 'askseam.controls', elements: [button(key, 'm', -1, 0, 'Answer…', 'primary')] }, hint];
  }
  return { blocks, text };
}

/** The card once the question has ended: the same words, no controls, and what happened. */
export function slackSettledCard(input: Omit<SlackCardInput, 'key'>, outcomeText: string): { blocks: SlackBlock[]; text: string } {
  const batch = input.questions.length > 1;
  const markdown = new MarkdownBudget();
  const body = input.questions.flatMap((question, index) => questionBlocks(question, index, batch, markdown));
  const header: SlackBlock = { type: 'header', text: plain(headerOf(input.questions, undefined), slackLimits.headerText) };
  const outcome: SlackBlock = { type: 'section', text: mrkdwnText(outcomeText) };
  let blocks = [header, ...body, outcome];
  if (blocks.length > slackLimits.blocks) blocks = [header, outcome];
  return { blocks, text: shorten(outcomeText, slackLimits.fallbackText) };
}
