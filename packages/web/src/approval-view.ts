import { parseRecommendedLabel, type AskUserQuestionUrgency, type QuestionVote, type ToolApproval } from '@askseam/client';
import { revealBidiControls, toolInputKeys } from '@askseam/user-questions';
import { isPlainEnter, markdownBlock, urgencyBadge } from './composer-view.js';
import { h } from './dom.js';
import type { AskseamStrings } from './i18n.js';

export interface ApprovalCardModel {
  approval: ToolApproval;
  reason: string;
  /** Deny was pressed with no reason written and no deny option to send instead. */
  invalid: boolean;
  error: string | undefined;
  busy: boolean;
  /** The arguments' JSON view is unfolded. */
  argumentsOpen: boolean;
  urgency: AskUserQuestionUrgency | undefined;
  /** A quorum approval's approvals so far (`PendingQuestion.votes`). */
  votes: readonly QuestionVote[] | undefined;
  strings: AskseamStrings;
}

export interface ApprovalCardActions {
  approve(): void;
  deny(): void;
  typeReason(text: string): void;
  toggleArguments(open: boolean): void;
  dismiss(): void;
}

/**
 * The approval card. What will run comes first, in a frame of the card's own ("This will run"):
 * the tool's name, every top-level key of the arguments named in one line, and the arguments as a
 * collapsible JSON view. Only then the agent's words, in a frame labelled as unverified: what the
 * tool does and why (the question's Markdown `detail`). So a reason that draws its own "Arguments"
 * block, or an input padded until the JSON folds, cannot stand in for the call: the real keys are
 * listed above the fold and above anything the model wrote. Everything about the tool comes from a
 * model, so all of it goes in as text (`textContent`); only the reason is Markdown, sanitised like
 * every detail. Then Approve, Deny and a reason box.
 */
export function renderApprovalCard(model: ApprovalCardModel, actions: ApprovalCardActions): HTMLFormElement {
  const { approval, reason, invalid, error, busy, argumentsOpen, urgency, votes, strings } = model;
  const denyText = approval.deny === undefined ? strings.approvalDeny : parseRecommendedLabel(approval.deny).label;

  // Every top-level key, named outside the fold: padding cannot push the one that matters out of sight.
  const keys = toolInputKeys(approval.input);
  const json = h('pre', {
    class: 'json',
    // Already with bidi controls as escapes (toolInputText): an argument reads the way it will be used.
    text: approval.inputJson,
    attrs: { role: 'region', 'aria-label': strings.approvalArgumentsRegion, tabindex: 0, 'data-focus': 'arguments', dir: 'ltr' },
  });
  const argumentsView = h(
    'details',
    { class: 'arguments', props: { open: argumentsOpen }, on: { toggle: (event) => actions.toggleArguments((event.target as HTMLDetailsElement).open) } },
    h('summary', { text: strings.approvalArguments, attrs: { 'data-focus': 'arguments-toggle' } }),
    json,
  );

  return h(
    'form',
    {
      class: 'tool-approval',
      attrs: { novalidate: true, 'aria-labelledby': 'q-heading', 'aria-busy': busy ? 'true' : 'false' },
      on: {
        submit: (event) => {
          event.preventDefault();
          actions.deny();
        },
      },
    },
    h(
      'fieldset',
      { class: 'frame', props: { disabled: busy } },
      h('div', { class: 'top' }, h('span', { class: 'chip', text: approval.header ?? strings.approvalChip }), urgencyBadge(strings, urgency)),
      // Bidi controls as escapes: the tool's name, here and below, must not be made to read backwards.
      h('h2', { class: 'question', text: revealBidiControls(approval.question), attrs: { id: 'q-heading', tabindex: -1, 'data-focus': 'heading' } }),
      h(
        'div',
        { class: 'call', attrs: { role: 'group', 'aria-labelledby': 'q-call' } },
        h('p', { class: 'frame-label', text: strings.approvalCallLabel, attrs: { id: 'q-call' } }),
        h(
          'dl',
          { class: 'tool' },
          h('dt', { text: strings.approvalTool }),
          h('dd', {}, h('code', { class: 'tool-name', text: revealBidiControls(approval.toolName), attrs: { dir: 'ltr' } })),
          keys !== undefined && h('dt', { text: strings.approvalKeys }),
          keys !== undefined && keyList(keys, strings),
        ),
        argumentsView,
      ),
      (approval.toolDescription !== undefined || approval.reason !== undefined) &&
        h(
          'div',
          { class: 'agent-words', attrs: { role: 'group', 'aria-labelledby': 'q-agent' } },
          h('p', { class: 'frame-label', text: strings.approvalAgentLabel, attrs: { id: 'q-agent' } }),
          approval.toolDescription !== undefined &&
            h('dl', { class: 'tool' }, h('dt', { text: strings.approvalDescription }), h('dd', { class: 'tool-description', text: approval.toolDescription })),
          approval.reason !== undefined && markdownBlock('detail', approval.reason),
        ),
      approval.approvalsNeeded !== undefined && quorumLine(approval.approvalsNeeded, votes ?? [], strings),
      h(
        'div',
        { class: 'actions decision' },
        h('button', {
          class: 'primary',
          text: parseRecommendedLabel(approval.approve).label,
          attrs: { type: 'button', 'data-focus': 'approve' },
          on: { click: () => actions.approve() },
        }),
        h('button', { text: denyText, attrs: { type: 'button', 'data-focus': 'deny' }, on: { click: () => actions.deny() } }),
        busy && h('span', { class: 'sending', text: strings.sending }),
      ),
      h(
        'div',
        { class: 'custom feedback' },
        h('label', { class: 'custom-label', text: strings.approvalReasonLabel, attrs: { for: 'q-reason' } }),
        h('textarea', {
          attrs: {
            id: 'q-reason',
            rows: 2,
            placeholder: strings.approvalReasonPlaceholder,
            'data-focus': 'reason',
            'aria-describedby': invalid ? 'q-reason-hint q-invalid' : 'q-reason-hint',
            'aria-invalid': invalid ? 'true' : undefined,
          },
          props: { value: reason },
          on: {
            input: (event) => actions.typeReason((event.target as HTMLTextAreaElement).value),
            keydown: (event) => {
              if (!isPlainEnter(event as KeyboardEvent)) return;
              event.preventDefault();
              actions.deny();
            },
          },
        }),
        h('div', { class: 'hint', text: strings.approvalReasonHint, attrs: { id: 'q-reason-hint' } }),
      ),
      invalid && h('p', { class: 'invalid', text: strings.approvalReasonEmpty, attrs: { id: 'q-invalid', role: 'alert' } }),
      error !== undefined && h('div', { class: 'error', text: error, attrs: { role: 'alert' } }),
      h(
        'div',
        { class: 'actions' },
        h('button', { class: 'quiet', text: strings.dismiss, attrs: { type: 'button', 'data-focus': 'dismiss' }, on: { click: () => actions.dismiss() } }),
      ),
    ),
  );
}

/** "25 keys: note_0, note_1, …": every key, each as it reads in the JSON, none left out (the last one too). */
function keyList(keys: readonly string[], strings: AskseamStrings): HTMLElement {
  const names = keys.flatMap((key, index) => [index > 0 ? ', ' : '', h('code', { text: key, attrs: { dir: 'ltr' } })]);
  return h('dd', { class: 'argument-keys' }, strings.approvalKeyCount(keys.length), ...names);
}

/** "1 of 2 approvals (by @alex)": a quorum approval's progress, announced politely as votes come in. Names are people's words: text, bidi escaped. */
function quorumLine(needed: number, votes: readonly QuestionVote[], strings: AskseamStrings): HTMLElement {
  const names = votes.map((vote) => `@${revealBidiControls(vote.user ?? vote.principalId)}`);
  return h('p', { class: 'quorum', text: strings.approvalQuorum(votes.length, needed, names), attrs: { role: 'status', 'data-quorum': `${votes.length}/${needed}` } });
}
