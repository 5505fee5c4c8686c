/** The tools' names as the model sees them. */
export const askClarificationToolName = 'ask_clarification';
export const requestHumanInputToolName = 'request_human_input';

/** What the model reads to decide when and how to call ask_clarification. Restraint first. */
export const askClarificationToolDescription = [
  'Ask the user for clarification when you cannot proceed well without it, and wait for the answer.',
  '',
  'Use it when information is missing, the request can be read in several ways, you must choose between approaches, an action is risky or irreversible, or you want to suggest something. Do not ask for what you can find out yourself, and ask once for everything you need rather than one thing at a time.',
  '',
  'Give "question" as one clear sentence and "clarification_type" for why you ask. Offer "options" (a list of short strings, the recommended one first with " (Recommended)") for a single choice, or "fields" for a small form (name, label, type: text, textarea, number, select, multi_select, checkbox or date; required; options; placeholder). At most 16 fields and 24 options; use snake_case field names.',
  '',
  'The result is JSON. A single question: {"answer": "…"} (null when skipped). A form: {"answers": {"project_name": "my-app", "init_git": true, "replicas": 3, "features": ["Lint"]}}, keyed by field name.',
].join('\n');

/** What the model reads to decide when and how to call request_human_input. */
export const requestHumanInputToolDescription = [
  'Ask a human for input or approval and wait for the reply.',
  '',
  'Use it when a decision needs a person: an approval before a consequential step, a fact only they know, or a choice between options. Say how urgent it is, so the person can be notified accordingly.',
  '',
  'Give "question" as one clear sentence and "context" with what the person needs to decide. "format" is free_text, yes_no, or multiple_choice (then list "choices"). "urgency" is low, medium or high.',
  '',
  'The result is JSON: {"answer": "Yes"} — the chosen label, the person\'s own words, or null when they skipped it.',
].join('\n');

/** The result of either tool when no human is present in this run. */
export function nonInteractiveText(question: string): string {
  return (
    `Nobody can answer questions in this run (it is not interactive), so "${question}" was not asked. ` +
    'Do not wait and do not ask again: proceed on the most reasonable assumption, state it clearly, and list every assumption you made in your final result.'
  );
}
