import type { AskUserQuestionItem } from '@askseam/user-questions';
import type { TextLang } from '@askseam/text';
import { fieldQuestion } from './clarification-questions.js';
import { identifiersAsWords, internalNameFinder } from './internal-names.js';
import type { MissingField } from './request-clarification-schema.js';

/** What the phrasing step knows besides the fields: the business tool, the user's goal, the language. */
export interface PhraseContext {
  /** The business tool the call is for. Never to be written into the wording. */
  tool: string;
  /** What the user wants done, in the model's words (shown to the user). */
  goal: string;
  lang: TextLang;
  /** Aborted when the ask is withdrawn: an LLM call behind the phrasing should stop too. */
  signal?: AbortSignal;
}

/**
 * The phrasing step of seed 001: turn the declared missing fields into the questions the user
 * reads. In production an LLM call ("write a short, friendly question; never mention field, tool
 * or schema names"); `defaultPhrase` is the deterministic stand-in.
 *
 * Return one question per field, in the same order. Only the words are taken — `question`,
 * `header`, `detail`, `placeholder`; the id, input kind, options and `required` always come from
 * the field. A question whose words mention an argument or tool name, a missing or blank one, or a
 * phrasing that throws or returns the wrong count, is replaced by the default wording.
 */
export type PhraseMissingFields = (missing: readonly MissingField[], context: PhraseContext) => Promise<AskUserQuestionItem[]> | AskUserQuestionItem[];

interface Wording {
  header: string;
  intro(goal: string | undefined, count: number): string;
  question(field: MissingField): string;
}

const wording: Readonly<Record<TextLang, Wording>> = {
  en: {
    header: 'Missing information',
    intro: (goal, count) => `${goal === undefined ? 'I' : `For "${goal}", I`} need ${count === 1 ? 'one more detail' : `${count} more details`} from you.`,
    question: (field) => {
      const label = inSentence(shownLabel(field));
      switch (field.type) {
        case 'select':
          return `Which ${label} should I use?`;
        case 'multi_select':
          return `Which ${label} should I include?`;
        case 'checkbox':
          return `${shownLabel(field)}?`;
        default:
          return `What ${label} should I use?`;
      }
    },
  },
  zh: {
    header: '缺少信息',
    intro: (goal, count) => `${goal === undefined ? '' : `关于「${goal}」，`}还需要您补充${count === 1 ? '一项' : ` ${count} 项`}信息。`,
    question: (field) => {
      const label = shownLabel(field);
      switch (field.type) {
        case 'select':
          return `请问要选择哪个${label}？`;
        case 'multi_select':
          return `请问要包含哪些${label}？`;
        case 'checkbox':
          return `是否${label}？`;
        case 'number':
          return `请问${label}是多少？`;
        case 'date':
          return `请问${label}是哪一天？`;
        default:
          return `请提供${label}。`;
      }
    },
  },
};

/**
 * The deterministic phrasing: a friendly question per field made from its label and type, its
 * description as context, and the goal on the first question ("For "look up …", I need one more
 * detail from you."). A goal or description that mentions a field or tool name is left out; any
 * other code-style identifier in a label, description or goal is written as words (`addr_line_1`
 * → "addr line 1"), so nothing the person reads is shaped like code.
 */
export function defaultPhrase(missing: readonly MissingField[], context: PhraseContext): AskUserQuestionItem[] {
  const words = wording[context.lang];
  const mentionsName = internalNameFinder([context.tool, ...missing.map((field) => field.name)]);
  const visible = (text: string) => (text === '' || mentionsName(text) !== undefined ? undefined : identifiersAsWords(text));
  const intro = words.intro(visible(context.goal), missing.length);
  return missing.map((field, index) => {
    const item = plainQuestion(field, index, context.lang);
    const detail = [index === 0 ? intro : undefined, visible(field.description)].filter((part) => part !== undefined).join('\n\n');
    if (index === 0) item.header = words.header;
    if (detail !== '') item.detail = detail;
    return item;
  });
}

/** The question made from the label alone: the wording of last resort, clean by construction. */
export function plainQuestion(field: MissingField, index: number, lang: TextLang): AskUserQuestionItem {
  return fieldQuestion(field, index, wording[lang].question(field));
}

/** The label as the wording shows it: without its end mark, identifiers written as words. */
function shownLabel(field: MissingField): string {
  return identifiersAsWords(withoutEndMark(field.label));
}

/**
 * Mid-sentence, "Customer account number" reads "customer account number". Only a first word
 * written as an ordinary capitalised word is lowered: "CRM id", "iPhone", "Wi-Fi network",
 * "McDonald's branch" and "YouTube channels" keep the spelling their label gives them.
 */
function inSentence(label: string): string {
  const first = /^[^\s]+/u.exec(label)?.[0] ?? '';
  return /^\p{Lu}[\p{Ll}\p{M}'’-]*$/u.test(first) ? label[0]!.toLowerCase() + label.slice(1) : label;
}

function withoutEndMark(label: string): string {
  return label.replace(/[\s?？.。!！:：]+$/u, '');
}
