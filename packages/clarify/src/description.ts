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

export const requestClarificationToolName = 'request_clarification';

/** What the model reads to decide when and how to call request_clarification. It declares; it does not word. */
export const requestClarificationToolDescription = [
  'Ask the user for arguments a tool call needs and you cannot find out yourself, then call that tool with the answer. Use it instead of calling a tool with guessed or placeholder values.',
  '',
  'Do not write the question yourself: declare what is missing, and the user is asked in friendly words made from each field\'s label and description. Argument and tool names are never shown to the user.',
  '',
  'Give "tool_name" (the tool you want to call), "goal" (what the user wants done, a short phrase in their language), "known_arguments" (the arguments you already have) and "missing_fields": for each, "name" (the argument name), "label" (what the user calls it, in their language), "description" (what it is and why it is needed), and if useful "type" (text, textarea, number, select, multi_select, checkbox or date), "options" (the values the user may pick) and "required" (true unless the tool can run without it). Ask for everything missing at once, at most 16 fields.',
  '',
  'The result is JSON: {"tool": "…", "arguments": {…}} with the user\'s values merged in by argument name (numbers as numbers, checkboxes as true or false, dates as YYYY-MM-DD, multi_select as a list). Then call that tool with exactly those arguments. Optional fields the user skipped are listed in "skipped" and left out.',
].join('\n');
