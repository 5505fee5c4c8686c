import type { AskUserQuestionItem, AskUserQuestionUrgency } from '@askseam/user-questions';
import { fieldControls, formFieldKeys, markdownBlock, markInvalid, showsRequiredMark, urgencyBadge, type FieldActions } from './composer-view.js';
import { h } from './dom.js';
import type { QuestionDraft } from './draft.js';
import type { AskseamStrings } from './i18n.js';

// The form page (README, "Forms on one page"): a batch that `isFormBatch` claims is shown whole,
// every field with its own label, Required mark, hint and error slot, one Submit and Dismiss. The
// controls are the composer's own (`fieldControls`), named per field (`f0-value`, `f1-heading`…).

/** Everything the form page shows for one request. */
export interface FormPageModel {
  questions: readonly AskUserQuestionItem[];
  /** The draft of each question, in question order. */
  items: readonly QuestionDraft[];
  /** Why each question cannot be sent (the words to show), by question index; absent when it can. */
  invalid: ReadonlyMap<number, string>;
  error: string | undefined;
  busy: boolean;
  urgency: AskUserQuestionUrgency | undefined;
  strings: AskseamStrings;
}

/** What the person can do on the form page; the element owns the state. */
export interface FormPageActions {
  /** The actions of field `index`; its `primary` is Enter in that field (the next field, or submit on the last). */
  field(index: number): FieldActions;
  submit(): void;
  dismiss(): void;
}

/** The form page of a request: every question on one page, one Submit. */
export function renderFormPage(model: FormPageModel, actions: FormPageActions): HTMLFormElement {
  const { questions, items, invalid, error, busy, urgency, strings } = model;
  const badge = urgencyBadge(strings, urgency);
  const form = h(
    'form',
    {
      class: 'composer form-page',
      // Named by its first field's heading, as the composer is by its question.
      attrs: { novalidate: true, 'aria-labelledby': formFieldKeys(0).id('heading'), 'aria-busy': busy ? 'true' : 'false' },
      on: {
        submit: (event) => {
          event.preventDefault();
          actions.submit();
        },
      },
    },
    h(
      'fieldset',
      { class: 'frame', props: { disabled: busy } },
      badge && h('div', { class: 'top' }, badge),
      questions.map((question, index) => {
        const keys = formFieldKeys(index);
        const item = items[index] ?? { selected: [], custom: '', skipped: false };
        return h(
          'div',
          { class: 'field', attrs: { 'data-field': index, role: 'group', 'aria-labelledby': keys.id('heading') } },
          (question.header !== undefined || showsRequiredMark(question)) &&
            h(
              'div',
              { class: 'top' },
              question.header !== undefined && h('span', { class: 'chip', text: question.header }),
              showsRequiredMark(question) && h('span', { class: 'required-mark', text: strings.required, attrs: { id: keys.id('required') } }),
            ),
          h('h3', { class: 'question', text: question.question, attrs: { id: keys.id('heading'), tabindex: -1, 'data-focus': keys.focus('heading') } }),
          question.detail !== undefined && question.detail.trim() !== '' && markdownBlock('detail', question.detail),
          fieldControls({ question, item, last: index === questions.length - 1, strings, keys }, actions.field(index)),
        );
      }),
      error !== undefined && h('div', { class: 'error', text: error, attrs: { role: 'alert' } }),
      h(
        'div',
        { class: 'actions' },
        h('button', { class: 'quiet', text: strings.dismiss, attrs: { type: 'button', 'data-focus': 'dismiss' }, on: { click: () => actions.dismiss() } }),
        h('span', { class: 'spacer' }),
        busy && h('span', { class: 'sending', text: strings.sending }),
        h('button', { class: 'primary', text: strings.submit, attrs: { type: 'submit', 'data-focus': 'primary' } }),
      ),
    ),
  );
  for (const [index, message] of invalid) {
    const field = fieldOf(form, index);
    if (field) markInvalid(field, message, formFieldKeys(index));
  }
  return form;
}

/** The element of field `index` inside a rendered form page. */
export function fieldOf(root: ParentNode, index: number): HTMLElement | null {
  return root.querySelector<HTMLElement>(`.field[data-field="${index}"]`);
}

/** The first control of field `index` that takes focus (its input, textarea or first option). */
export function firstControlOf(root: ParentNode, index: number): HTMLElement | null {
  return fieldOf(root, index)?.querySelector<HTMLElement>('input, textarea') ?? null;
}
