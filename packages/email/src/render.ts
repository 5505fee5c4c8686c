import { detectLang, renderText, type TextLang } from '@askseam/text';
import { revealBidiControls, type AskUserQuestionItem } from '@askseam/user-questions';
import { mailMessages } from './messages.js';
import type { ChannelQuestion } from './port.js';

/** One mail's subject and its two bodies. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

export interface QuestionMailOptions {
  /** A one-question link (the host's `linkFor`), offered as an alternative to replying. */
  link?: string | undefined;
  lang?: TextLang | undefined;
}

// Long subjects are cut by every client anyway; cut here at a word, so the cut is ours.
const SUBJECT_MAX = 120;

/**
 * The question mail: `@askseam/text`'s rendering (options numbered, the recommended one marked,
 * how to answer, an approval's tool and arguments as inert text), how to reply by e-mail, and the
 * link; as text and as HTML that shows the same words, escaped.
 */
export function questionMail(question: ChannelQuestion, options: QuestionMailOptions = {}): MailContent {
  const lang = options.lang ?? detectLang(question.questions);
  const words = mailMessages[lang];
  const body = renderText(question.questions, { lang, budget: 20_000 });
  const urgent = question.urgency === 'high' ? words.urgent : '';
  const approval = isApproval(question.questions);
  const text = [body, '', words.replyHow, ...(options.link === undefined ? [] : ['', words.linkText(options.link)])].join('\n');
  const html = htmlDocument([
    approval ? `<pre style="white-space:pre-wrap;font-family:ui-monospace,Menlo,Consolas,monospace">${escapeHtml(body)}</pre>` : textToHtml(body),
    `<p>${escapeHtml(words.replyHow)}</p>`,
    ...(options.link === undefined ? [] : [`<p><a href="${escapeHtml(options.link)}">${escapeHtml(words.link)}</a></p>`]),
  ]);
  return { subject: `${urgent}${subjectOf(question.questions, lang)}`, text, html };
}

/** The corrective mail: askseam's own problem messages, then the question again. */
export function correctionMail(question: ChannelQuestion, problems: readonly string[], options: QuestionMailOptions & { subject: string }): MailContent {
  const lang = options.lang ?? detectLang(question.questions);
  const words = mailMessages[lang];
  const again = questionMail(question, options);
  const list = problems.map((problem) => `• ${problem}`);
  const text = [words.correctionIntro, ...list, '', words.correctionStillOpen, '', again.text].join('\n');
  const html = htmlDocument([
    `<p>${escapeHtml(words.correctionIntro)}</p>`,
    `<ul>${problems.map((problem) => `<li>${escapeHtml(problem)}</li>`).join('')}</ul>`,
    `<p>${escapeHtml(words.correctionStillOpen)}</p>`,
    again.html.replace(/^<!doctype html><html><body>|<\/body><\/html>$/g, ''),
  ]);
  return { subject: replySubject(options.subject), text, html };
}

/** A short notice: a late reply's "already answered", or the optional "answered by … in …" note. */
export function noticeMail(subject: string, lines: readonly string[]): MailContent {
  return { subject: replySubject(subject), text: lines.join('\n'), html: htmlDocument(lines.map((line) => `<p>${escapeHtml(line)}</p>`)) };
}

/** `Re: subject`, once. */
export function replySubject(subject: string): string {
  return /^\s*(re|回复|答复|aw|sv)\s*[:：]/i.test(subject) ? subject : `Re: ${subject}`;
}

export function subjectOf(questions: readonly AskUserQuestionItem[], lang: TextLang): string {
  const words = mailMessages[lang];
  const first = questions[0];
  if (first === undefined) return '';
  const intent = first.intent;
  if (questions.length === 1 && intent?.kind === 'tool-approval') return oneLine(words.approvalSubject(intent.tool.name));
  const own = first.header ? `${first.header}: ${first.question}` : first.question;
  return oneLine(questions.length === 1 ? own : words.manySubject(questions.length, own));
}

function isApproval(questions: readonly AskUserQuestionItem[]): boolean {
  return questions.length === 1 && questions[0]?.intent?.kind === 'tool-approval';
}

/** A subject is one line, its bidi controls shown (so the model's words cannot reorder it), cut at a word. */
function oneLine(text: string): string {
  const flat = revealBidiControls(text).replace(/\s+/g, ' ').trim();
  if (flat.length <= SUBJECT_MAX) return flat;
  const room = flat.slice(0, SUBJECT_MAX - 1);
  const space = room.lastIndexOf(' ');
  return `${space > SUBJECT_MAX / 2 ? room.slice(0, space) : room}…`;
}

// An option line the text rendering marked as recommended ("1. React (Recommended) — …").
const recommendedLine = /^\s*\d+[.)] .*(?:\(Recommended\)|（推荐）)/;

/** Plain text as HTML paragraphs, line breaks and indents kept (pre-wrap), everything escaped; a Recommended option in bold. */
function textToHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((paragraph) => `<p style="white-space:pre-wrap">${paragraph.split('\n').map((line) => (recommendedLine.test(line) ? `<strong>${escapeHtml(line)}</strong>` : escapeHtml(line))).join('\n')}</p>`)
    .join('\n');
}

function htmlDocument(parts: readonly string[]): string {
  return `<!doctype html><html><body>${parts.join('\n')}</body></html>`;
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
