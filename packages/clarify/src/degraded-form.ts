import type { AskUserQuestionItem } from '@askseam/user-questions';
import { defaultTextBudget, renderText, type TextLang } from '@askseam/text';
import type { ClarifyDegradation } from './ask-clarification-args.js';

// A form that cannot be shown as a form is asked as one plain question. Its context names
// everything the form asked for — every field, every option — so the person can still answer all
// of it ("Region 25" included). Only when that list cannot fit the message does part of it stay
// out, and then the text says how much and how to give it.

interface AskedWords {
  choices: string;
  cover: string;
  field(label: string, options: string, multiple: boolean): string;
  /** The last line when part of the list stayed out: how much, and what the person can do. */
  leftOut(fields: number, choices: number): string;
}

const plural = (count: number, word: string) => `${count} more ${word}${count === 1 ? '' : 's'}`;

const words: Readonly<Record<TextLang, AskedWords>> = {
  en: {
    choices: 'The choices:',
    cover: 'Please cover:',
    field: (label, options, multiple) => (options === '' ? label : `${label} (${multiple ? 'any of' : 'one of'}: ${options})`),
    leftOut: (fields, choices) => {
      const parts = [fields > 0 ? plural(fields, 'field') : '', choices > 0 ? plural(choices, 'choice') : ''].filter((part) => part !== '');
      return `(${parts.join(' and ')} ${fields + choices === 1 ? 'is' : 'are'} not listed here to keep this message short; write what you need in your own words, or ask for the full list.)`;
    },
  },
  zh: {
    choices: '可选项：',
    cover: '请说明：',
    field: (label, options, multiple) => (options === '' ? label : `${label}（${multiple ? '可多选' : '选一项'}：${options}）`),
    leftOut: (fields, choices) => {
      const parts = [fields > 0 ? `${fields} 个字段` : '', choices > 0 ? `${choices} 个选项` : ''].filter((part) => part !== '');
      return `（为避免消息过长，另有 ${parts.join('和 ')}未列出：请用自己的话写明需要的内容，或要求查看完整列表。）`;
    },
  },
};

// One label or option longer than this (the form may have been dropped for that very reason) is
// shown by its start; the ellipsis says the rest is there.
const maxShownLength = 80;
// Room kept free in the plain text for the line renderText adds when it shortens the context.
const cutNoteRoom = 120;

/**
 * The context of the one plain question that replaces a dropped form: the model's context and the
 * list of everything the form asked for, laid out so that the plain text (within `budget`) shows
 * the whole list where it can; a long context gives way first.
 */
export function degradedDetail(question: AskUserQuestionItem, context: string | undefined, degraded: ClarifyDegradation, lang: TextLang, budget: number | undefined): string | undefined {
  const limit = budget ?? defaultTextBudget;
  const length = (detail: string | undefined) => renderText({ questions: [detail === undefined ? question : { ...question, detail }] }, { lang, budget: Number.MAX_SAFE_INTEGER }).length;
  const whole = wholeList(degraded, lang);
  if (whole === undefined) return context;
  const everything = context === undefined ? whole : `${context}\n\n${whole}`;
  if (length(everything) <= limit) return everything;
  const room = limit - length(undefined) - cutNoteRoom;
  if (context === undefined) return askedList(degraded, lang, room);
  // A short context keeps its place on top; a long one goes below the list, where renderText
  // shortens or drops it (and says so) before it would touch the list.
  if (context.length + 2 <= room / 4) return `${context}\n\n${askedList(degraded, lang, room - context.length - 2)}`;
  return `${askedList(degraded, lang, room)}\n\n${context}`;
}

/** Everything the form asked for, one line each: the choices, then each field with its options. */
function wholeList(degraded: ClarifyDegradation, lang: TextLang): string | undefined {
  const say = words[lang];
  const { options, fields } = degraded;
  if (options.length === 0 && fields.length === 0) return undefined;
  const choiceLines = options.length === 0 ? [] : [say.choices, ...options.map((option) => `- ${shown(option)}`)];
  const fieldLines = fields.length === 0 ? [] : [say.cover, ...fields.map((field) => `- ${say.field(shown(field.label), field.options.map(shown).join(' / '), field.multiple)}`)];
  return [...choiceLines, ...fieldLines].join('\n');
}

/** The whole list when it fits `room` characters; else its start and a line saying what stayed out. */
function askedList(degraded: ClarifyDegradation, lang: TextLang, room: number): string | undefined {
  const whole = wholeList(degraded, lang);
  if (whole === undefined || whole.length <= room) return whole;
  const say = words[lang];
  const { options, fields } = degraded;
  let fieldsLeft = fields.length;
  let choicesLeft = options.length + fields.reduce((sum, field) => sum + field.options.length, 0);
  // The note's length with every count at its largest: it can only get shorter.
  const space = room - say.leftOut(fieldsLeft, choicesLeft).length - 1;
  const lines: string[] = [];
  let used = 0;
  const add = (line: string): boolean => {
    if (used + line.length + 1 > space) return false;
    lines.push(line);
    used += line.length + 1;
    return true;
  };

  const fitted = (() => {
    if (options.length > 0) {
      if (!add(say.choices)) return false;
      for (const option of options) {
        if (!add(`- ${shown(option)}`)) return false;
        choicesLeft--;
      }
    }
    if (fields.length === 0) return true;
    if (!add(say.cover)) return false;
    for (const field of fields) {
      const labels = field.options.map(shown);
      if (add(`- ${say.field(shown(field.label), labels.join(' / '), field.multiple)}`)) {
        fieldsLeft--;
        choicesLeft -= labels.length;
        continue;
      }
      // The field still fits with the first of its options: name it, and let "…" and the note count the rest.
      for (let kept = labels.length - 1; kept >= 0; kept--) {
        if (add(`- ${say.field(shown(field.label), [...labels.slice(0, kept), '…'].join(' / '), field.multiple)}`)) {
          fieldsLeft--;
          choicesLeft -= kept;
          break;
        }
      }
      return false;
    }
    return true;
  })();
  if (!fitted) lines.push(say.leftOut(fieldsLeft, choicesLeft));
  return lines.join('\n');
}

function shown(text: string): string {
  const points = [...text];
  return points.length > maxShownLength ? `${points.slice(0, maxShownLength - 1).join('')}…` : text;
}
