// Ask for a secret at the terminal and write the answer as JSON to the file named by the first
// argument: at a TTY the typed characters are echoed as stars.
import { writeFileSync } from 'node:fs';
import { UserQuestions, type AskUserQuestionItem } from '@askseam/user-questions';
import { createTerminalProvider } from '@askseam/provider-terminal';

export const passphraseQuestion: AskUserQuestionItem = {
  id: 'passphrase',
  header: 'Deploy key',
  question: 'Passphrase of the deploy key?',
  input: { kind: 'text' },
  required: true,
  // Worded as a secret, it would be treated as one anyway; the flag says so outright.
  sensitive: true,
};

const userQuestions = new UserQuestions();
const terminal = createTerminalProvider();
const dispose = userQuestions.registerProvider(terminal);
try {
  const answer = await userQuestions.ask({ questions: [passphraseQuestion], timeoutMs: 60_000 });
  writeFileSync(process.argv[2]!, `${JSON.stringify(answer)}\n`);
} finally {
  dispose();
  terminal.close();
}
