import { revealBidiControls, toolInputKeys, toolInputText, type AskUserQuestionItem, type AskUserQuestionUrgency, type ToolApprovalIntent } from '@askseam/user-questions';
import { splitRecommended } from './labels.js';
import { detectLang, type TextLang } from './lang.js';
import type { TextReplyResult } from './parse.js';
import { textMessages } from './messages.js';
import { unquote } from './scan.js';

// An approval (one question with a tool-approval intent, docs/approvals.md) in plain text: what
// will run first (the tool, every top-level key named, the arguments as indented JSON), then the
// model's words (what the tool does, why) indented under a label that says nobody checked them,
// and a reply of "approve" or "deny" with an optional reason. The model's words come last and
// indented, so a reason that writes its own "Arguments:" cannot pass for the real ones. `renderText`
// and `parseTextReply` hand an approval batch here; every other batch is theirs. The arguments are
// never shortened silently: what does not fit is counted.

/** An approval batch as the text channel reads it: the same batches the browser's approval card claims. */
interface TextApproval {
  question: AskUserQuestionItem;
  intent: ToolApprovalIntent;
  deny: string | undefined;
}

/** The approval in `questions`, or `undefined` when they are not one: then the generic text applies. */
function approvalIn(questions: readonly AskUserQuestionItem[]): TextApproval | undefined {
  if (questions.length !== 1) return undefined;
  const question = questions[0]!;
  const intent = question.intent;
  if (intent?.kind !== 'tool-approval' || question.multiSelect === true) return undefined;
  if (question.input !== undefined && question.input.kind !== 'select') return undefined;
  const options = question.options ?? [];
  if (options.length > 2 || !options.some((option) => option.label === intent.approve)) return undefined;
  if (toolInputText(intent.tool.input) === undefined) return undefined;
  return { question, intent, deny: options.find((option) => option.label !== intent.approve)?.label };
}

const words = {
  en: {
    tool: 'Tool: ',
    keys: (names: readonly string[], count: number) =>
      count === 0 ? 'Argument names: none' : `Argument names (${count}): ${names.join(', ')}${names.length < count ? `, … ${count - names.length} more not shown` : ''}`,
    agent: 'The agent says (unverified):',
    description: 'What it does: ',
    reason: 'Why:',
    arguments: 'Arguments:',
    argumentsCut: (lines: number) => `  … ${lines} more ${lines === 1 ? 'line' : 'lines'} of arguments not shown; read them where the whole card is shown before you approve.`,
    reply: (approve: string, deny: string | undefined) =>
      `Reply "approve" (or 1${approve === 'Approve' ? '' : `, or "${approve}"`}) to run it, or "deny"${deny === undefined ? '' : ' (or 2)'} ` +
      'followed by your reason if you like, for example "deny: not on a Friday".',
    problemUnclear:
      'Reply "approve" to run the tool, or "deny" to stop it, optionally followed by your reason ("deny: not on a Friday"). Words after "approve" are not read as an approval.',
    problemNoReason: 'This approval has no deny option: write "deny:" followed by your reason.',
    quorum: (count: number, needed: number, names: readonly string[]) =>
      `${count} of ${needed} approvals${names.length === 0 ? '' : ` (by ${names.join(', ')})`}; any one deny stops it.`,
  },
  zh: {
    tool: '工具：',
    keys: (names: readonly string[], count: number) =>
      count === 0 ? '参数名：无' : `参数名（共 ${count} 个）：${names.join(', ')}${names.length < count ? `，…… 另有 ${count - names.length} 个未显示` : ''}`,
    agent: '智能体的说法（未经核实）：',
    description: '用途：',
    reason: '原因：',
    arguments: '参数：',
    argumentsCut: (lines: number) => `  …… 另有 ${lines} 行参数未显示；批准前请在能显示完整内容的地方查看。`,
    reply: (approve: string, deny: string | undefined) =>
      `回复“批准”（或 1${approve === '批准' ? '' : `，或“${approve}”`}）以运行；回复“拒绝”${deny === undefined ? '' : '（或 2）'}以阻止，可在后面写上理由，例如“拒绝：周五不发布”。`,
    problemUnclear: '请回复“批准”以运行该工具，或回复“拒绝”以阻止它，可在后面写上理由（“拒绝：周五不发布”）。“批准”后面带其他文字时不算批准。',
    problemNoReason: '这个审批没有“拒绝”选项：请写“拒绝：”并附上理由。',
    quorum: (count: number, needed: number, names: readonly string[]) =>
      `已有 ${count} / ${needed} 人批准${names.length === 0 ? '' : `（${names.join('、')}）`}；任何一人拒绝即停止。`,
  },
};

/**
 * `questions` as approval text, or `undefined` when they are not an approval. Within `budget`
 * characters: the model's words go first, then argument lines from the end, then key names from
 * the end, each cut counted in a line.
 */
export function renderApprovalText(
  questions: readonly AskUserQuestionItem[],
  urgency: AskUserQuestionUrgency | undefined,
  options: { budget: number; lang?: TextLang; votes?: readonly TextVote[] | undefined },
): string | undefined {
  const approval = approvalIn(questions);
  if (approval === undefined) return undefined;
  const { question, intent, deny } = approval;
  const lang = options.lang ?? detectLang(questions);
  const text = words[lang];
  const argumentLines = toolInputText(intent.tool.input)!.split('\n').map((line) => `  ${line}`);
  const keys = toolInputKeys(intent.tool.input);
  const progress = quorumLine(intent, options.votes ?? [], lang);
  const indent = (block: string, first: string, rest: string): string[] => block.split('\n').map((line, index) => (line === '' ? '' : `${index === 0 ? first : rest}${line}`));

  const compose = (withAgentWords: boolean, shownArguments: number, shownKeys: number): string => {
    const lines: string[] = [];
    const mark = urgency === undefined ? undefined : textMessages[lang].urgency[urgency];
    if (mark) lines.push(mark);
    lines.push(`${question.header ? `[${question.header}] ` : ''}${revealBidiControls(question.question)}`);
    lines.push(`${text.tool}${revealBidiControls(intent.tool.name)}`);
    if (progress !== undefined) lines.push(progress);
    if (keys !== undefined) lines.push(text.keys(keys.slice(0, shownKeys), keys.length));
    lines.push(text.arguments, ...argumentLines.slice(0, shownArguments));
    if (shownArguments < argumentLines.length) lines.push(text.argumentsCut(argumentLines.length - shownArguments));
    const description = intent.tool.description;
    if (withAgentWords && (description !== undefined || question.detail)) {
      lines.push(text.agent);
      if (description !== undefined) lines.push(...indent(description, `  ${text.description}`, '    '));
      if (question.detail) lines.push(`  ${text.reason}`, ...indent(question.detail, '    ', '    '));
    }
    (question.options ?? []).forEach((option, index) => {
      const description = option.description ? ` — ${option.description}` : '';
      lines.push(`${index + 1}. ${splitRecommended(option.label).label.trimEnd()}${description}`);
    });
    lines.push('', text.reply(intent.approve, deny));
    return lines.join('\n');
  };

  const allKeys = keys?.length ?? 0;
  const full = compose(true, argumentLines.length, allKeys);
  if (full.length <= options.budget) return full;
  const fits = (text: string): boolean => text.length <= options.budget;
  // The text grows with every line or key shown, so the most that fit is found by halving.
  if (fits(compose(false, 0, allKeys))) return compose(false, mostThatFit(argumentLines.length, (shown) => fits(compose(false, shown, allKeys))), allKeys);
  return compose(false, 0, mostThatFit(allKeys, (shown) => fits(compose(false, 0, shown))));
}

/** The largest `n` in 0…`max` for which `fits(n)` holds, `fits` turning false from some point on; 0 when none does. */
function mostThatFit(max: number, fits: (n: number) => boolean): number {
  let low = 0;
  let high = max;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  return low;
}

// A whole reply that is one of these words (any case and width, trailing punctuation allowed).
const approveWords = new Set(['1', 'approve', 'approved', 'yes', 'y', 'ok', 'okay', 'allow', 'run it', '批准', '同意', '允许', '是', '好', '可以']);
const denyWords = ['deny', 'denied', 'no', 'n', 'reject', '2', '拒绝', '不同意', '不允许', '不行', '否', '不'];
const skipWords = new Set(['skip', '跳过']);

/**
 * A reply to an approval, or `undefined` when `questions` are not one. "approve" (批准, yes, 1, or
 * the approve label) alone approves; "deny" (拒绝, no, 2, or the deny label) denies, and text after
 * it (after ":", "," or a space) is the reason, sent as the question's custom answer; quoted text is
 * the person's own words (a reason), as everywhere in the text channel; "skip" is a skip. Anything
 * else, "approve" with words after it included, is a problem: an approval is never guessed.
 */
export function parseApprovalReply(questions: readonly AskUserQuestionItem[], reply: string, lang: TextLang | undefined): TextReplyResult | undefined {
  const approval = approvalIn(questions);
  if (approval === undefined) return undefined;
  const { question, intent, deny } = approval;
  const text = words[lang ?? detectLang(questions)];
  const id = question.id;
  const problem = (message: string): TextReplyResult => ({ ok: false, problems: [{ questionId: id, message }], partial: [] });
  const trimmed = reply.replace(/\r\n?/g, '\n').trim();

  const literal = unquote(trimmed);
  if (literal !== undefined) return literal.trim() === '' ? problem(text.problemUnclear) : { ok: true, answer: { answers: [{ id, selected: [], custom: literal }] } };
  const folded = fold(trimmed).replace(/[.!。！]+$/u, '');
  if (skipWords.has(folded)) return { ok: true, answer: { answers: [{ id, selected: [] }] } };
  if (approveWords.has(folded) || folded === fold(intent.approve)) return { ok: true, answer: { answers: [{ id, selected: [intent.approve] }] } };

  const denial = [...denyWords, ...(deny === undefined ? [] : [fold(deny)])].find((word) => folded === word || startsWithWord(folded, word));
  if (denial === undefined) return problem(text.problemUnclear);
  // The reason is what follows the word, in the person's own case and width.
  // Only closing punctuation after the word ("deny.") is no reason.
  const reason = trimmed.slice(denialLength(trimmed, denial)).replace(/^[\s:：,，;；\-—–]+/u, '').replace(/^[.!。！]+$/u, '').trim();
  if (reason !== '') return { ok: true, answer: { answers: [{ id, selected: [], custom: unquote(reason) ?? reason }] } };
  if (deny === undefined) return problem(text.problemNoReason);
  return { ok: true, answer: { answers: [{ id, selected: [deny] }] } };
}

function fold(text: string): string {
  return text.normalize('NFKC').trim().toLowerCase();
}

/** `folded` starts with `word` followed by a separator (or, for Chinese, anything): "deny: x", "no, x", "拒绝因为…". */
function startsWithWord(folded: string, word: string): boolean {
  if (!folded.startsWith(word)) return false;
  const next = folded[word.length] ?? '';
  // A Chinese word needs no space after it, but a one-character one ("不") would also start "不错" (not bad).
  return /[\s:：,，;；\-—–]/u.test(next) || (word.length >= 2 && /[\u3400-\u9fff]/u.test(word));
}

/** How many characters of the original reply the deny word takes (NFKC folding may change lengths). */
function denialLength(reply: string, word: string): number {
  for (let end = 1; end <= reply.length; end += 1) if (fold(reply.slice(0, end)) === word) return end;
  return word.length;
}

/** One approval counted on a quorum approval, as the text names it: `@` and the channel's name for the person, else the principal. */
export interface TextVote {
  principalId: string;
  user?: string;
}

/**
 * A quorum approval's progress as one line: "1 of 2 approvals (by @alex); any one deny stops it."
 * (`lang` `zh`: "已有 1 / 2 人批准（@alex）；任何一人拒绝即停止。"). `undefined` when the questions are no
 * quorum approval. A channel edits what it posted with it as votes are counted.
 */
export function quorumProgressText(questions: readonly AskUserQuestionItem[], votes: readonly TextVote[] = [], lang?: TextLang): string | undefined {
  const approval = approvalIn(questions);
  if (approval === undefined) return undefined;
  return quorumLine(approval.intent, votes, lang ?? detectLang(questions));
}

function quorumLine(intent: ToolApprovalIntent, votes: readonly TextVote[], lang: TextLang): string | undefined {
  if (intent.quorum === undefined) return undefined;
  // A name is the person's words, shown as inert text: no bidi trick may turn it around.
  const names = votes.map((vote) => `@${revealBidiControls(vote.user ?? vote.principalId)}`);
  return words[lang].quorum(votes.length, intent.quorum.approvals, names);
}
