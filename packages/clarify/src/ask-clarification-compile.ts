import type { AskUserQuestionItem, AskUserQuestionOption } from '@askseam/user-questions';
import type { TextLang } from '@askseam/text';
import { readAskClarificationArgs, topLevelChoiceId, type ReadAskClarification } from './ask-clarification-args.js';
import type { ClarificationField, ClarificationType } from './ask-clarification-schema.js';
import { assemble, type CompileOptions, type CompileResult } from './compiled.js';
import { degradedDetail } from './degraded-form.js';
import { langOf } from './lang.js';

/** The id of the one question asked when there is no form. */
export const singleQuestionId = 'answer';

/** The chip above the question: why the model asks. */
const typeHeaders: Readonly<Record<TextLang, Record<ClarificationType, string>>> = {
  en: {
    missing_info: 'Missing information',
    ambiguous_requirement: 'Ambiguous request',
    approach_choice: 'Choose an approach',
    risk_confirmation: 'Please confirm',
    suggestion: 'Suggestion',
  },
  zh: {
    missing_info: '缺少信息',
    ambiguous_requirement: '需求不明确',
    approach_choice: '方案选择',
    risk_confirmation: '风险确认',
    suggestion: '建议',
  },
};

/**
 * ask_clarification's arguments as seam questions, plain text and a UI payload. No fields and no
 * options: one free question (`answer`). Options: one choice (`answer`). Fields: one question per
 * field, keyed by its name, after a top-level choice (`choice`) when options came too. A form that
 * cannot be used whole becomes one free question that still names what the form asked for.
 */
export function compileAskClarification(args: unknown, options: CompileOptions = {}): CompileResult {
  const read = readAskClarificationArgs(args);
  if (!read.ok) return read;
  const { question, context, clarification_type: type } = read.value.args;
  const lang = options.lang ?? langOf(question, context);
  const header = typeHeaders[lang][type];
  const { questions, inputMode } = questionsOf(read.value, header, lang, options.budget);
  return assemble({
    source: 'ask_clarification',
    tool: 'ask_clarification',
    question,
    context,
    questions,
    inputMode,
    clarificationType: type,
    ...(read.value.degraded === undefined ? {} : { degraded: read.value.degraded }),
    budget: options.budget,
    lang,
  });
}

function questionsOf(read: ReadAskClarification, header: string, lang: TextLang, budget: number | undefined): { questions: AskUserQuestionItem[]; inputMode: 'choice' | 'text' | 'form' } {
  const { question, context, options = [], fields = [] } = read.args;
  const withContext = (item: AskUserQuestionItem, detail: string | undefined): AskUserQuestionItem => (detail === undefined ? item : { ...item, detail });

  if (read.degraded !== undefined) {
    const plain: AskUserQuestionItem = { id: singleQuestionId, header, question, input: { kind: 'textarea' } };
    return { questions: [withContext(plain, degradedDetail(plain, context, read.degraded, lang, budget))], inputMode: 'text' };
  }
  const choices = options.map((label): AskUserQuestionOption => {
    const description = read.descriptions.get(label);
    return description === undefined ? { label } : { label, description };
  });
  if (fields.length === 0) {
    const single: AskUserQuestionItem =
      choices.length > 0 ? { id: singleQuestionId, header, question, options: choices, input: { kind: 'select' } } : { id: singleQuestionId, header, question, input: { kind: 'textarea' } };
    return { questions: [withContext(single, context)], inputMode: choices.length > 0 ? 'choice' : 'text' };
  }
  const formQuestions = fields.map(fieldQuestion);
  if (choices.length > 0) {
    const choice: AskUserQuestionItem = { id: topLevelChoiceId, header, question, options: choices, input: { kind: 'select' } };
    return { questions: [withContext(choice, context), ...formQuestions], inputMode: 'form' };
  }
  // The form's purpose travels on its first field, for a UI that shows one field at a time.
  const [first, ...rest] = formQuestions;
  const purpose = context === undefined ? question : `${question}\n\n${context}`;
  return { questions: [{ ...first!, header, detail: purpose }, ...rest], inputMode: 'form' };
}

function fieldQuestion(field: ClarificationField): AskUserQuestionItem {
  const type = field.type ?? 'text';
  const item: AskUserQuestionItem = { id: field.name, question: field.label ?? field.name, input: { kind: type } };
  if (type === 'select' || type === 'multi_select') item.options = (field.options ?? []).map((label) => ({ label }));
  // Readers that know only multiSelect (older UIs) still let the user pick several.
  if (type === 'multi_select') item.multiSelect = true;
  if (field.required === true) item.required = true;
  if (field.placeholder !== undefined) item.placeholder = field.placeholder;
  return item;
}
