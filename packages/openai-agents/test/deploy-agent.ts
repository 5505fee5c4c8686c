// The agent of the durable tests, built the same way in the process that starts the run and in the
// one that resumes it (a restored run needs the same agent name and tools).
import { appendFileSync } from 'node:fs';
import { Agent, tool } from '@openai/agents';
import type { ScriptedModel } from '@openai/agents/testing';

/** `deploy` needs approval; each real run appends the version to `ledger` (a file: runs are counted across processes). */
export function deployAgent(model: ScriptedModel, ledger: string) {
  const deploy = tool({
    name: 'deploy',
    description: 'Deploys a version to production.',
    parameters: { type: 'object', properties: { version: { type: 'string' } }, required: ['version'], additionalProperties: false },
    needsApproval: true,
    execute: async (input) => {
      const { version } = input as { version: string };
      appendFileSync(ledger, `${version}\n`);
      return `Deployed ${version}.`;
    },
  });
  return new Agent({ name: 'release-bot', model, tools: [deploy] });
}
