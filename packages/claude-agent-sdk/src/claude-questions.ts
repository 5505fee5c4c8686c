import type { AskUserQuestionAnswer, AskUserQuestionItem } from '@askseam/user-questions';
// Namespace import: lets bundlers drop the parts of zod (locales) we never use.
import * as z from 'zod';

// Claude's built-in AskUserQuestion tool, both ways: its input (typed in
// `@anthropic-ai/claude-agent-sdk/sdk-tools` as AskUserQuestionInput) becomes askseam questions,
// and the person's answer becomes the `answers` (and `annotations`) the tool reads back from
// `updatedInput`: keyed by question text, multi-select labels comma-separated.

/** The name Claude calls the built-in question tool by. */
export const askUserQuestionToolName = 'AskUserQuestion';

const claudeOptionSchema = z.object({
  label: z.string(),
  description: z.string(),
  preview: z.string().optional(),
});

const claudeQuestionSchema = z.object({
  question: z.string(),
  header: z.string(),
  options: z.array(claudeOptionSchema).min(2).max(4),
  multiSelect: z.boolean(),
});

/** The part of AskUserQuestion's input read here; other keys (metadata, …) are kept as they came. */
const claudeQuestionsInputSchema = z.object({ questions: z.array(claudeQuestionSchema).min(1).max(4) });

export type ClaudeQuestion = z.infer<typeof claudeQuestionSchema>;

/** What AskUserQuestion reads back: the person's answers by question text, and notes where useful. */
export interface ClaudeAnswers {
  answers: Record<string, string>;
  annotations?: Record<string, { preview?: string; notes?: string }>;
}

export type ParsedClaudeQuestions = { ok: true; questions: ClaudeQuestion[] } | { ok: false; problem: string };

/**
 * Read AskUserQuestion's input. The CLI checks it against the tool's schema before asking, so a
 * problem here means a CLI whose tool changed shape; the problem is worded for the model anyway.
 */
export function parseClaudeQuestions(input: unknown): ParsedClaudeQuestions {
  const parsed = claudeQuestionsInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, problem: `AskUserQuestion input.${issue?.path.map(String).join('.') ?? ''}: ${issue?.message ?? 'invalid'}. Send 1-4 questions, each with question, header, 2-4 options { label, description } and multiSelect.` };
  }
  const texts = new Set<string>();
  for (const question of parsed.data.questions) {
    // Answers are keyed by question text: two equal texts could not both be answered.
    if (texts.has(question.question)) return { ok: false, problem: `AskUserQuestion asks "${question.question}" twice; every question text must be unique.` };
    texts.add(question.question);
  }
  return { ok: true, questions: parsed.data.questions };
}

/**
 * The askseam id of Claude's question at `index`. Stable: the same input always gives the same
 * ids, so a question asked again (a resumed session re-runs the hook) is the same question.
 */
export function claudeQuestionId(index: number): string {
  return `q${index + 1}`;
}

/**
 * Claude's questions as askseam questions. Options keep label and description; option previews
 * (mockups, code) go into the question's Markdown detail, each under its option's label, since an
 * askseam option has no preview of its own.
 */
export function askseamQuestionsOf(questions: readonly ClaudeQuestion[]): AskUserQuestionItem[] {
  return questions.map((question, index) => {
    const item: AskUserQuestionItem = {
      id: claudeQuestionId(index),
      question: question.question,
      header: question.header,
      options: question.options.map(({ label, description }) => ({ label, description })),
      multiSelect: question.multiSelect,
    };
    const previews = question.options.filter((option) => option.preview !== undefined && option.preview.trim() !== '');
    if (previews.length > 0) item.detail = previews.map((option) => `**${option.label}**\n\n${fenced(option.preview!)}`).join('\n\n');
    return item;
  });
}

/** A code fence longer than any run of backticks inside, so a preview cannot close it early. */
function fenced(text: string): string {
  const longest = Math.max(2, ...Array.from(text.matchAll(/`+/g), (match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${text}\n${fence}`;
}

/** What Claude reads for a question the person skipped (answered nothing, dismissed nothing). */
export const skippedAnswerText = 'The user skipped this question.';

/**
 * The person's answer as AskUserQuestion's `answers` and `annotations`. Each question's value is
 * the chosen label, or the labels of a multi-select joined with ", ", with the person's own words
 * (askseam's custom answer, Claude's "Other") as one more entry; a skip reads `skippedAnswerText`.
 * When the chosen option had a preview, its annotation carries that preview, as Claude Code's own
 * picker reports it.
 */
export function claudeAnswersOf(questions: readonly ClaudeQuestion[], answer: AskUserQuestionAnswer): ClaudeAnswers {
  const answers: Record<string, string> = {};
  const annotations: Record<string, { preview?: string }> = {};
  questions.forEach((question, index) => {
    const item = answer.answers.find((each) => each.id === claudeQuestionId(index));
    const custom = item?.custom?.trim();
    const parts = [...(item?.selected ?? []), ...(custom === undefined || custom === '' ? [] : [custom])];
    answers[question.question] = parts.length === 0 ? skippedAnswerText : parts.join(', ');
    const previews = (item?.selected ?? []).flatMap((label) => question.options.find((option) => option.label === label)?.preview ?? []);
    if (previews.length > 0) annotations[question.question] = { preview: previews.join('\n\n') };
  });
  return Object.keys(annotations).length === 0 ? { answers } : { answers, annotations };
}
