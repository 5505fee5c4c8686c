import { parseRecommendedLabel } from '@askseam/client';
import type { AskUserQuestionItem } from '@askseam/user-questions';
import { h } from './dom.js';
import type { QuestionDraft } from './draft.js';
import type { AskseamStrings } from './i18n.js';
import { renderMarkdown } from './markdown.js';

/** Everything the composer shows for one question of a request. */
export interface ComposerModel {
  question: AskUserQuestionItem;
  /** Zero-based position of the question in its request. */
  index: number;
  count: number;
  item: QuestionDraft;
  /** Submit found this question neither answered nor skipped. */
  invalid: boolean;
  error: string | undefined;
  busy: boolean;
  strings: AskseamStrings;
}

/** What the person can do in the composer; the element owns the state and re-renders. */
export interface ComposerActions {
  choose(label: string): void;
  typeCustom(text: string): void;
  skip(): void;
  back(): void;
  /** Next question, or submit on the last one. */
  primary(): void;
  dismiss(): void;
}

/**
 * The generic composer for one question. Elements that keep focus across re-renders carry a
 * `data-focus` key. Question text, labels and descriptions go in as text; only `detail` is
 * Markdown, and it is sanitised.
 */
export function renderComposer(model: ComposerModel, actions: ComposerActions): HTMLFormElement {
  const { question, index, count, item, invalid, error, busy, strings } = model;
  const last = index === count - 1;
  const options = question.options ?? [];
  const multi = question.multiSelect === true;
  const describedBy = invalid ? 'q-invalid' : undefined;

  const optionGroup =
    options.length > 0 &&
    h(
      'fieldset',
      { class: 'options', attrs: { 'aria-invalid': invalid ? 'true' : undefined, 'aria-describedby': describedBy } },
      h('legend', { text: multi ? strings.chooseAny : strings.chooseOne }),
      options.map((option, at) => {
        const shown = parseRecommendedLabel(option.label);
        const descriptionId = `q-option-${at}-description`;
        return h(
          'label',
          { class: 'option' },
          h('input', {
            attrs: {
              type: multi ? 'checkbox' : 'radio',
              name: 'q-options',
              'data-focus': `option-${at}`,
              'aria-describedby': option.description ? descriptionId : undefined,
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

  const customLabel = options.length === 0 ? strings.customLabelOpen : multi ? strings.customLabelMulti : strings.customLabelSingle;
  const custom = h(
    'div',
    { class: 'custom' },
    h('label', { class: 'custom-label', text: customLabel, attrs: { for: 'q-custom' } }),
    h('textarea', {
      attrs: {
        id: 'q-custom',
        rows: 2,
        placeholder: strings.customPlaceholder,
        'data-focus': 'custom',
        'aria-describedby': ['q-hint', describedBy].filter(Boolean).join(' '),
        'aria-invalid': invalid && options.length === 0 ? 'true' : undefined,
      },
      props: { value: item.custom },
      on: {
        input: (event) => actions.typeCustom((event.target as HTMLTextAreaElement).value),
        keydown: (event) => onCustomKeydown(event as KeyboardEvent, actions),
      },
    }),
    h('div', { class: 'hint', text: last ? strings.hintSubmit : strings.hintContinue, attrs: { id: 'q-hint' } }),
  );

  return h(
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
        count > 1 && h('span', { class: 'pager-count', text: strings.pager(index + 1, count), attrs: { 'aria-label': strings.pagerLabel(index + 1, count) } }),
      ),
      h('h2', { class: 'question', text: question.question, attrs: { id: 'q-heading', tabindex: -1, 'data-focus': 'heading' } }),
      question.detail !== undefined && question.detail.trim() !== '' && markdownBlock('detail', question.detail),
      optionGroup,
      custom,
      item.skipped && h('p', { class: 'note', text: strings.skippedNote, attrs: { 'data-role': 'skipped' } }),
      invalid && h('p', { class: 'invalid', text: strings.incomplete, attrs: { id: 'q-invalid', role: 'alert' } }),
      error !== undefined && h('div', { class: 'error', text: error, attrs: { role: 'alert' } }),
      h(
        'div',
        { class: 'actions' },
        h('button', { class: 'quiet', text: strings.dismiss, attrs: { type: 'button', 'data-focus': 'dismiss' }, on: { click: () => actions.dismiss() } }),
        h('span', { class: 'spacer' }),
        busy && h('span', { class: 'sending', text: strings.sending }),
        h('button', { text: strings.skip, attrs: { type: 'button', 'data-focus': 'skip' }, on: { click: () => actions.skip() } }),
        index > 0 && h('button', { text: strings.back, attrs: { type: 'button', 'data-focus': 'back' }, on: { click: () => actions.back() } }),
        h('button', { class: 'primary', text: last ? strings.submit : strings.next, attrs: { type: 'submit', 'data-focus': 'primary' } }),
      ),
    ),
  );
}

/** A block of sanitised Markdown. */
export function markdownBlock(className: string, source: string): HTMLDivElement {
  const block = h('div', { class: className });
  block.innerHTML = renderMarkdown(source);
  return block;
}

/** Enter continues (or submits on the last question); Shift+Enter is a newline; IME composition owns Enter. */
function onCustomKeydown(event: KeyboardEvent, actions: ComposerActions): void {
  if (!isPlainEnter(event)) return;
  event.preventDefault();
  actions.primary();
}

/** An Enter press that is not Shift+Enter and not confirming an IME composition. */
export function isPlainEnter(event: KeyboardEvent): boolean {
  // keyCode 229 is what browsers report for keys an IME is still processing (Safari ends the
  // composition before keydown, so isComposing alone misses it).
  if (event.isComposing || event.keyCode === 229) return false;
  return event.key === 'Enter' && !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey;
}
