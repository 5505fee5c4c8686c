import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UserQuestions } from '@askseam/user-questions';
import { prepareRequestClarification, requestClarificationTool } from '@askseam/clarify';
import { seedCall } from './exchanges.js';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

describe('the README', () => {

  it('shows seed 001\'s call, the question the person reads, and what the model reads as they really are', async () => {
    const readme = read('../README.md');
    const json = /```json\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(JSON.parse(json)).toEqual(seedCall);
    const prepared = await prepareRequestClarification(seedCall);
    expect(prepared.ok && prepared.value.request.questions[0]).toMatchObject({ id: 'field-1', question: '请问要选择哪个炉号？' });

    const userQuestions = new UserQuestions();
    const dispose = userQuestions.registerProvider({ ask: async ({ questions }) => ({ answers: [{ id: questions[0]!.id, selected: ['11号炉'] }] }) });
    try {
      const result = await requestClarificationTool.execute(seedCall, { userQuestions });
      expect(readme).toContain(`\`\`\`text\n${result.text}\n\`\`\``);
    } finally {
      dispose();
    }
  });
});
