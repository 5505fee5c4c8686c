import { parseRecommendedLabel, type AskUserQuestionUrgency, type PlanReview } from '@askseam/client';
import { isPlainEnter, markdownBlock, urgencyBadge } from './composer-view.js';
import { h } from './dom.js';
import type { AskseamStrings } from './i18n.js';

export interface PlanCardModel {
  review: PlanReview;
  header: string | undefined;
  feedback: string;
  /** "Send feedback" was pressed with nothing written. */
  invalid: boolean;
  error: string | undefined;
  busy: boolean;
  /** The request's urgency, shown as a badge (high and medium only). */
  urgency: AskUserQuestionUrgency | undefined;
  strings: AskseamStrings;
}

export interface PlanCardActions {
  approve(): void;
  decline(): void;
  typeFeedback(text: string): void;
  sendFeedback(): void;
  dismiss(): void;
}

/** The plan-review card: the plan, Approve, the decline option if any, and a feedback box. */
export function renderPlanCard(model: PlanCardModel, actions: PlanCardActions): HTMLFormElement {
  const { review, header, feedback, invalid, error, busy, urgency, strings } = model;
  const plan = markdownBlock('plan detail', review.plan);
  plan.setAttribute('role', 'region');
  plan.setAttribute('aria-label', strings.planRegion);
  // A scrolling region must be reachable by keyboard to be scrollable by keyboard.
  plan.setAttribute('tabindex', '0');
  plan.dataset['focus'] = 'plan';

  return h(
    'form',
    {
      class: 'plan-review',
      attrs: { novalidate: true, 'aria-labelledby': 'q-heading', 'aria-busy': busy ? 'true' : 'false' },
      on: {
        submit: (event) => {
          event.preventDefault();
          actions.sendFeedback();
        },
      },
    },
    h(
      'fieldset',
      { class: 'frame', props: { disabled: busy } },
      h('div', { class: 'top' }, h('span', { class: 'chip', text: header ?? strings.planChip }), urgencyBadge(strings, urgency)),
      h('h2', { class: 'question', text: review.question, attrs: { id: 'q-heading', tabindex: -1, 'data-focus': 'heading' } }),
      plan,
      h(
        'div',
        { class: 'actions decision' },
        h('button', {
          class: 'primary',
          text: parseRecommendedLabel(review.approve).label,
          attrs: { type: 'button', 'data-focus': 'approve' },
          on: { click: () => actions.approve() },
        }),
        review.decline !== undefined &&
          h('button', {
            text: parseRecommendedLabel(review.decline).label,
            attrs: { type: 'button', 'data-focus': 'decline' },
            on: { click: () => actions.decline() },
          }),
        busy && h('span', { class: 'sending', text: strings.sending }),
      ),
      h(
        'div',
        { class: 'custom feedback' },
        h('label', { class: 'custom-label', text: strings.planFeedbackLabel, attrs: { for: 'q-feedback' } }),
        h('textarea', {
          attrs: {
            id: 'q-feedback',
            rows: 3,
            placeholder: strings.planFeedbackPlaceholder,
            'data-focus': 'feedback',
            'aria-describedby': invalid ? 'q-feedback-hint q-invalid' : 'q-feedback-hint',
            'aria-invalid': invalid ? 'true' : undefined,
          },
          props: { value: feedback },
          on: {
            input: (event) => actions.typeFeedback((event.target as HTMLTextAreaElement).value),
            keydown: (event) => {
              if (!isPlainEnter(event as KeyboardEvent)) return;
              event.preventDefault();
              actions.sendFeedback();
            },
          },
        }),
        h('div', { class: 'hint', text: strings.planFeedbackHint, attrs: { id: 'q-feedback-hint' } }),
      ),
      invalid && h('p', { class: 'invalid', text: strings.feedbackEmpty, attrs: { id: 'q-invalid', role: 'alert' } }),
      error !== undefined && h('div', { class: 'error', text: error, attrs: { role: 'alert' } }),
      h(
        'div',
        { class: 'actions' },
        h('button', { class: 'quiet', text: strings.dismiss, attrs: { type: 'button', 'data-focus': 'dismiss' }, on: { click: () => actions.dismiss() } }),
        h('span', { class: 'spacer' }),
        h('button', { text: strings.sendFeedback, attrs: { type: 'submit', 'data-focus': 'send-feedback' } }),
      ),
    ),
  );
}
