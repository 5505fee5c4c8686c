import { parseRecommendedLabel } from '@askseam/client';
import { isMultiSelect, isSensitiveQuestion, isValueInput, type AskUserQuestionItem, type AskUserQuestionUrgency } from '@askseam/user-questions';
import { h } from './dom.js';
import type { QuestionDraft } from './draft.js';
import type { AskseamStrings } from './i18n.js';
import { renderMarkdown } from './markdown.js';
import { boundsText } from './problem-text.js';

/** Everything the composer shows for one question of a request. */
export interface ComposerModel {
  question: AskUserQuestionItem;
  /** Zero-based position of the question in its request. */
  index: number;
  count: number;
  item: QuestionDraft;
  /** Why this question cannot be sent yet (Submit or Next found it so), or `undefined`. */
  invalid: string | undefined;
  error: string | undefined;
  busy: boolean;
  /** The request's urgency, shown as a badge (high and medium only). */
  urgency: AskUserQuestionUrgency | undefined;
  strings: AskseamStrings;
}

/** What the person can do with the answer controls of one question (on the composer or the form page). */
export interface FieldActions {
  choose(label: string): void;
  /** Typed into the custom box, or into a text, textarea, number or date input. */
  typeCustom(text: string): void;
  /** Checked or unchecked the box of a checkbox question. */
  setChecked(checked: boolean): void;
  /** Next question (or the next field of a form page), or submit on the last one. */
  primary(): void;
}

/** What the person can do in the composer; the element owns the state and re-renders. */
export interface ComposerActions extends FieldActions {
  skip(): void;
  back(): void;
  dismiss(): void;
}

/**
 * How one question's elements are named: element ids (`id('value')`) and the `data-focus` keys
 * that keep focus across re-renders (`focus('value')`). The composer shows one question, so its
 * names are plain (`q-value`, `value`); a form page shows several and prefixes each field's.
 */
export interface FieldKeys {
  id(name: string): string;
  focus(name: string): string;
}

/** The names of the composer's one question. */
export const composerKeys: FieldKeys = { id: (name) => `q-${name}`, focus: (name) => name };

/** The names of field `index` of a form page: `f2-value`, both as id and focus key. */
export function formFieldKeys(index: number): FieldKeys {
  return { id: (name) => `f${index}-${name}`, focus: (name) => `f${index}-${name}` };
}

/** What the answer controls of one question need: its draft, whether it is the last, and its names. */
export interface FieldModel {
  question: AskUserQuestionItem;
  item: QuestionDraft;
  /** The last question of the request: Enter submits instead of moving on. */
  last: boolean;
  strings: AskseamStrings;
  keys: FieldKeys;
}

/**
 * The answer controls of one question: a typed input's native control, or the option list and the
 * custom box. Shared by the composer and the form page so each kind is built in one place.
 */
export function fieldControls(field: FieldModel, actions: FieldActions): (HTMLElement | undefined)[] {
  return isValueInput(field.question.input) ? [valueControl(field, actions)] : [optionGroup(field, actions), customBox(field, actions)];
}

/**
 * The generic composer for one question. Elements that keep focus across re-renders carry a
 * `data-focus` key. Question text, labels and descriptions go in as text; only `detail` is
 * Markdown, and it is sanitised. The control that holds the answer carries `data-invalid`
 * ("mark": gets aria-invalid; "describe": only points at the message), so an invalid mark can be
 * added and removed in place (see `markInvalid`) without rebuilding what the person is typing in.
 */
export function renderComposer(model: ComposerModel, actions: ComposerActions): HTMLFormElement {
  const { question, index, count, invalid, error, busy, strings, urgency, item } = model;
  const last = index === count - 1;
  const required = question.required === true;
  const requiredMark = showsRequiredMark(question);

  const form = h(
    'form',
    {
      class: 'composer',
      attrs: { novalidate: true, 'aria-labelledby': 'q-heading', 'aria-busy': busy ? 'true' : 'false' },
      on: {
        submit: (event) => {
          event.preventDefault();
          actions.primary();
        },
      },
    },
    h(
      'fieldset',
      { class: 'frame', props: { disabled: busy } },
      h(
        'div',
        { class: 'top' },
        h('span', { class: 'chip', text: question.header ?? strings.questionChip }),
        requiredMark && h('span', { class: 'required-mark', text: strings.required, attrs: { id: 'q-required' } }),
        urgencyBadge(strings, urgency),
        count > 1 && h('span', { class: 'pager-count', text: strings.pager(index + 1, count), attrs: { 'aria-label': strings.pagerLabel(index + 1, count) } }),
      ),
      h('h2', { class: 'question', text: question.question, attrs: { id: 'q-heading', tabindex: -1, 'data-focus': 'heading' } }),
      question.detail !== undefined && question.detail.trim() !== '' && markdownBlock('detail', question.detail),
      fieldControls({ question, item, last, strings, keys: composerKeys }, actions),
      item.skipped && h('p', { class: 'note', text: strings.skippedNote, attrs: { 'data-role': 'skipped' } }),
      error !== undefined && h('div', { class: 'error', text: error, attrs: { role: 'alert' } }),
      h(
        'div',
        { class: 'actions' },
        h('button', { class: 'quiet', text: strings.dismiss, attrs: { type: 'button', 'data-focus': 'dismiss' }, on: { click: () => actions.dismiss() } }),
        h('span', { class: 'spacer' }),
        busy && h('span', { class: 'sending', text: strings.sending }),
        // A required question cannot be skipped, so it offers no Skip at all.
        !required && h('button', { text: strings.skip, attrs: { type: 'button', 'data-focus': 'skip' }, on: { click: () => actions.skip() } }),
        index > 0 && h('button', { text: strings.back, attrs: { type: 'button', 'data-focus': 'back' }, on: { click: () => actions.back() } }),
        h('button', { class: 'primary', text: last ? strings.submit : strings.next, attrs: { type: 'submit', 'data-focus': 'primary' } }),
      ),
    ),
  );
  if (invalid !== undefined) markInvalid(form, invalid);
  return form;
}

/**
 * Whether `question` shows the "Required" mark. Either state of a checkbox is an answer, so a
 * required one needs nothing from the person that the mark could ask for (README, "Forms").
 */
export function showsRequiredMark(question: AskUserQuestionItem): boolean {
  return question.required === true && question.input?.kind !== 'checkbox';
}

/** Radio buttons (single-select, `select`) or checkboxes (multi-select, `multi_select`), numbered from 1. */
function optionGroup(field: FieldModel, actions: FieldActions): HTMLFieldSetElement | undefined {
  const { question, item, strings, keys } = field;
  const options = question.options ?? [];
  if (options.length === 0) return undefined;
  const multi = isMultiSelect(question);
  const required = question.required === true;
  return h(
    'fieldset',
    {
      class: 'options',
      // A required multi-select group cannot carry aria-required (no such state on a group); it
      // points at the visible "Required" mark instead. Radios carry `required` themselves.
      attrs: { 'data-invalid': 'mark', 'aria-describedby': required && multi ? keys.id('required') : undefined },
    },
    h('legend', { text: multi ? strings.chooseAny : strings.chooseOne }),
    options.map((option, at) => {
      const shown = parseRecommendedLabel(option.label);
      const descriptionId = keys.id(`option-${at}-description`);
      return h(
        'label',
        { class: 'option' },
        h('input', {
          attrs: {
            type: multi ? 'checkbox' : 'radio',
            name: keys.id('options'),
            'data-focus': keys.focus(`option-${at}`),
            'aria-describedby': option.description ? descriptionId : undefined,
            required: required && !multi,
          },
          // The value is the full original label: the answer carries it, suffix and all.
          props: { value: option.label, checked: item.selected.includes(option.label) },
          on: {
            change: () => actions.choose(option.label),
            // Enter on an option moves on, like Enter in the text box (browsers differ on implicit submission here).
            keydown: (event) => {
              if (!isPlainEnter(event as KeyboardEvent)) return;
              event.preventDefault();
              actions.primary();
            },
          },
        }),
        h('span', { class: 'number', text: String(at + 1), attrs: { 'aria-hidden': 'true' } }),
        h(
          'span',
          { class: 'text' },
          h('span', { class: 'label', text: shown.label }),
          shown.recommended && h('span', { class: 'badge', text: strings.recommended }),
          option.description && h('span', { class: 'description', text: option.description, attrs: { id: descriptionId } }),
        ),
      );
    }),
  );
}

/**
 * The free-text box: the whole answer of an open question, or an alternative beside options. A
 * secret (`isSensitiveQuestion`) is one line, typed into a masked box.
 */
function customBox(field: FieldModel, actions: FieldActions): HTMLDivElement {
  const { question, item, strings, last, keys } = field;
  const options = question.options ?? [];
  const open = options.length === 0;
  const secret = isSensitiveQuestion(question);
  const customLabel = open ? strings.customLabelOpen : isMultiSelect(question) ? strings.customLabelMulti : strings.customLabelSingle;
  return h(
    'div',
    { class: 'custom' },
    h('label', { class: 'custom-label', text: customLabel, attrs: { for: keys.id('custom') } }),
    h(secret ? 'input' : 'textarea', {
      attrs: {
        id: keys.id('custom'),
        ...(secret ? { type: 'password', autocomplete: 'off' } : { rows: 2 }),
        placeholder: question.placeholder ?? strings.customPlaceholder,
        'data-focus': keys.focus('custom'),
        'aria-describedby': keys.id('hint'),
        'aria-required': open && question.required === true ? 'true' : undefined,
        // Beside options, the option group is what is missing; the box only points at the message.
        'data-invalid': open ? 'mark' : 'describe',
      },
      props: { value: item.custom },
      on: {
        input: (event) => actions.typeCustom((event.target as HTMLTextAreaElement).value),
        keydown: (event) => (secret ? onSingleLineKeydown : onMultilineKeydown)(event as KeyboardEvent, actions),
      },
    }),
    h('div', { class: 'hint', text: secret ? (last ? strings.hintLineSubmit : strings.hintLineContinue) : last ? strings.hintSubmit : strings.hintContinue, attrs: { id: keys.id('hint') } }),
  );
}

/**
 * The native control of a typed input, named by the question heading: a one-line text box, a
 * textarea, a number or date input with its bounds, or one checkbox. What it accepts is written
 * under it (`q-bounds`), so nobody has to find the limits by being refused.
 */
function valueControl(field: FieldModel, actions: FieldActions): HTMLDivElement {
  const { question, item, strings, last, keys } = field;
  const input = question.input!;
  const bounds = boundsText(strings, input);
  const placeholder = question.placeholder;
  const shared = {
    id: keys.id('value'),
    'data-focus': keys.focus('value'),
    'data-invalid': 'mark',
    'aria-labelledby': keys.id('heading'),
    'aria-describedby': bounds === undefined ? keys.id('hint') : `${keys.id('bounds')} ${keys.id('hint')}`,
    // A checkbox is answered by either state (see renderComposer), so it is never "required" to AT either.
    'aria-required': question.required === true && input.kind !== 'checkbox' ? 'true' : undefined,
  };
  const onInput = (event: Event) => actions.typeCustom((event.target as HTMLInputElement | HTMLTextAreaElement).value);
  const onLineKeydown = (event: Event) => onSingleLineKeydown(event as KeyboardEvent, actions);

  // A secret (marked sensitive, or worded as one) is typed into a one-line masked box, even a textarea's.
  const secret = isSensitiveQuestion(question);
  let control: HTMLElement;
  switch (input.kind) {
    case 'text':
    case 'textarea':
      if (input.kind === 'text' || secret) {
        control = h('input', {
          attrs: { ...shared, type: secret ? 'password' : 'text', maxlength: input.maxLength, placeholder, autocomplete: 'off' },
          props: { value: item.custom },
          on: { input: onInput, keydown: onLineKeydown },
        });
        break;
      }
      control = h('textarea', {
        attrs: { ...shared, rows: 4, maxlength: input.maxLength, placeholder },
        props: { value: item.custom },
        on: { input: onInput, keydown: (event) => onMultilineKeydown(event as KeyboardEvent, actions) },
      });
      break;
    case 'number':
      control = h('input', {
        // step="any" without a step: the browser's default step of 1 would call 2.5 a mismatch.
        attrs: { ...shared, type: 'number', inputmode: 'decimal', min: input.min, max: input.max, step: input.step ?? 'any', placeholder },
        props: { value: item.custom },
        on: { input: onInput, keydown: onLineKeydown },
      });
      break;
    case 'date':
      // Date inputs show their own format mask; a placeholder would never appear.
      control = h('input', {
        attrs: { ...shared, type: 'date', min: input.min, max: input.max },
        props: { value: item.custom },
        on: { input: onInput, keydown: onLineKeydown },
      });
      break;
    default:
      control = h(
        'label',
        { class: 'option checkbox-answer' },
        h('input', {
          attrs: { ...shared, type: 'checkbox' },
          props: { checked: item.custom === 'true' },
          on: {
            change: (event) => actions.setChecked((event.target as HTMLInputElement).checked),
            keydown: (event) => {
              if (!isPlainEnter(event as KeyboardEvent)) return;
              event.preventDefault();
              actions.primary();
            },
          },
        }),
        h('span', { class: 'text', text: strings.checkboxYes }),
      );
  }
  const multiline = input.kind === 'textarea' && !secret;
  const hint = multiline ? (last ? strings.hintSubmit : strings.hintContinue) : last ? strings.hintLineSubmit : strings.hintLineContinue;
  return h(
    'div',
    { class: `value value-${input.kind}` },
    control,
    bounds !== undefined && h('div', { class: 'hint bounds', text: bounds, attrs: { id: keys.id('bounds') } }),
    h('div', { class: 'hint', text: hint, attrs: { id: keys.id('hint') } }),
  );
}

/** The urgency badge of a request: "Urgent" for high, "Soon" for medium, nothing for low or unsaid. */
export function urgencyBadge(strings: AskseamStrings, urgency: AskUserQuestionUrgency | undefined): HTMLSpanElement | undefined {
  if (urgency !== 'high' && urgency !== 'medium') return undefined;
  const words = strings.urgency[urgency];
  // The short word is for the eye; a screen reader hears the full "High urgency" instead.
  return h(
    'span',
    { class: 'urgency', attrs: { 'data-urgency': urgency } },
    h('span', { text: words.badge, attrs: { 'aria-hidden': 'true' } }),
    h('span', { class: 'visually-hidden', text: words.label }),
  );
}

/**
 * Mark the question in `form` invalid with `message`: aria-invalid on its answer control, the
 * message as an alert, referenced by aria-describedby. Used when rendering and to patch a card in
 * place (a re-render would empty a number or date input whose text the browser could not read).
 */
export function markInvalid(form: ParentNode, message: string, keys: FieldKeys = composerKeys): void {
  clearInvalid(form, keys);
  const noteId = keys.id('invalid');
  for (const target of form.querySelectorAll('[data-invalid]')) {
    if (target.getAttribute('data-invalid') === 'mark') target.setAttribute('aria-invalid', 'true');
    const ids = (target.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id !== '');
    target.setAttribute('aria-describedby', [...ids, noteId].join(' '));
  }
  const note = h('p', { class: 'invalid', text: message, attrs: { id: noteId, role: 'alert' } });
  const frame = form.querySelector('.frame') ?? form;
  const before = frame.querySelector(':scope > .error') ?? frame.querySelector(':scope > .actions');
  if (before) before.before(note);
  else frame.append(note);
}

/** Remove what `markInvalid` (or a card rendered invalid) added. */
export function clearInvalid(form: ParentNode, keys: FieldKeys = composerKeys): void {
  const noteId = keys.id('invalid');
  form.querySelector(`#${noteId}`)?.remove();
  for (const marked of form.querySelectorAll('[aria-invalid]')) marked.removeAttribute('aria-invalid');
  for (const described of form.querySelectorAll(`[aria-describedby~="${noteId}"]`)) {
    const rest = described.getAttribute('aria-describedby')!.split(' ').filter((id) => id !== noteId);
    if (rest.length > 0) described.setAttribute('aria-describedby', rest.join(' '));
    else described.removeAttribute('aria-describedby');
  }
}

/** A block of sanitised Markdown. */
export function markdownBlock(className: string, source: string): HTMLDivElement {
  const block = h('div', { class: className });
  block.append(renderMarkdown(source));
  return block;
}

/** Enter continues (or submits on the last question); Shift+Enter is a newline; IME composition owns Enter. */
function onMultilineKeydown(event: KeyboardEvent, actions: FieldActions): void {
  if (!isPlainEnter(event)) return;
  event.preventDefault();
  actions.primary();
}

/** One-line controls: Enter continues (or submits); no Enter, Shift+Enter included, submits the form natively. */
function onSingleLineKeydown(event: KeyboardEvent, actions: FieldActions): void {
  // Enter that confirms an IME composition belongs to the IME: leave it alone entirely.
  if (event.key !== 'Enter' || event.isComposing || event.keyCode === 229) return;
  event.preventDefault();
  if (isPlainEnter(event)) actions.primary();
}

/** An Enter press that is not Shift+Enter and not confirming an IME composition. */
export function isPlainEnter(event: KeyboardEvent): boolean {
  // keyCode 229 is what browsers report for keys an IME is still processing (Safari ends the
  // composition before keydown, so isComposing alone misses it).
  if (event.isComposing || event.keyCode === 229) return false;
  return event.key === 'Enter' && !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey;
}
