// Ask a person at the terminal whether a tool may run, and print the decision as JSON:
//   node approve-in-terminal.js              at a TTY: Approve, Deny, or Deny with a reason
//   echo "deny: not today" | node approve-in-terminal.js   over a pipe: the approval as text
// With a file path as the first argument, the decision is written there instead of to stdout.
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { askApproval, UserQuestionError, UserQuestions } from '@askseam/user-questions';
import { createTerminalProvider } from '@askseam/provider-terminal';

export async function approveInTerminal(): Promise<string> {
  const userQuestions = new UserQuestions();
  const terminal = createTerminalProvider();
  const dispose = userQuestions.registerProvider(terminal);
  try {
    const decision = await askApproval(userQuestions, {
      tool: { name: 'deploy', description: 'Deploys a service to production.', input: { service: 'api', version: '1.4.0', canary: true } },
      reason: 'All checks passed on main.',
      timeoutMs: 10 * 60_000,
    });
    return JSON.stringify(decision);
  } catch (error) {
    // Dismissed, timed out or aborted: no decision, so the tool does not run.
    if (UserQuestionError.isInstance(error)) return JSON.stringify({ error: error.code });
    throw error;
  } finally {
    dispose();
    terminal.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await approveInTerminal();
  const target = process.argv[2];
  if (target) writeFileSync(target, `${result}\n`);
  else process.stdout.write(`${result}\n`);
}
