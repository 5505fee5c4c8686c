/** The tool's name as the model sees it. */
export const askUserQuestionToolName = 'ask_user_question';

/**
 * What the model reads to decide when and how to call the tool. It teaches restraint first
 * (asking is expensive for the user), then the conventions the answer relies on.
 */
export const askUserQuestionToolDescription = [
  'Ask the user one or more structured questions and wait for the answers.',
  '',
  'Ask only when a choice, a confirmation or a missing fact blocks your progress. Do not ask about anything you can find out yourself (by reading files, running commands or searching), and do not ask for permission to do what you were already asked to do. Put related questions into one call instead of asking them one after another.',
  '',
  'Give every question a short, stable id (for example "database"); each answer comes back with the id of its question, in the same order. When the answer is a choice, offer options: the label is what the user picks and exactly what you get back. If you recommend an option, put it first and append " (Recommended)" to its label. Use header for a short chip of a few words, and an option\'s description for one sentence on its trade-off. Set multi_select to true when several options may apply.',
  '',
  'The user may skip a question (its "selected" list is empty and there is no "custom") or type their own answer instead of picking one (it comes back as "custom"). The result is JSON: {"answers":[{"id":"database","selected":["Postgres (Recommended)"]}]}.',
].join('\n');
