// Ask a few questions at the terminal and print the answer as JSON:
//   node ask-in-terminal.js              at a TTY: arrow keys, numbers, space, Enter; Ctrl+C cancels
//   echo "2" | node ask-in-terminal.js   over a pipe: the questions as text, the reply read as text
// With a file path as the first argument, the answer is written there instead of to stdout.
// ASK_TIMEOUT_MS shortens the ten minutes the person has to answer.
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { UserQuestionError, UserQuestions, type AskUserQuestionItem } from '@askseam/user-questions';
import { createTerminalProvider } from '@askseam/provider-terminal';

export const setupQuestions: AskUserQuestionItem[] = [
  {
    id: 'framework',
    header: 'Framework',
    question: 'Which framework should the project use?',
    options: [
      { label: 'React (Recommended)', description: 'The team knows it best.' },
      { label: 'Vue', description: 'Lighter, gentle learning curve.' },
      { label: 'Svelte', description: 'Compiles away; smallest bundles.' },
    ],
  },
  { id: 'features', question: 'Which extras?', options: [{ label: 'Lint' }, { label: 'Tests' }, { label: 'CI' }], multiSelect: true },
  { id: 'name', question: 'Project name?', input: { kind: 'text', maxLength: 40 }, required: true, placeholder: 'my-app' },
  { id: 'git', question: 'Initialise Git?', input: { kind: 'checkbox' } },
];

export async function askInTerminal(): Promise<string> {
  const userQuestions = new UserQuestions();
  const terminal = createTerminalProvider();
  const dispose = userQuestions.registerProvider(terminal);
  try {
    const timeoutMs = Number(process.env.ASK_TIMEOUT_MS) || 10 * 60_000;
    const answer = await userQuestions.ask({ questions: setupQuestions, timeoutMs });
    return JSON.stringify(answer);
  } catch (error) {
    if (UserQuestionError.isInstance(error)) return JSON.stringify({ error: error.code });
    throw error;
  } finally {
    dispose();
    terminal.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await askInTerminal();
  const target = process.argv[2];
  if (target) writeFileSync(target, `${result}\n`);
  else process.stdout.write(`${result}\n`);
}
