import { afterEach, describe, expect, it } from 'vitest';
import { createAssistant, takeRecommended } from './openai-tool-loop.js';

const assistants: Array<{ dispose(): void }> = [];
afterEach(() => {
  for (const assistant of assistants.splice(0)) assistant.dispose();
});

function assistant() {
  const created = createAssistant(takeRecommended);
  assistants.push(created);
  return created;
}

describe('the OpenAI tool loop example', () => {
  it('offers ask_user_question as a strict function tool', () => {
    const [tool] = assistant().tools;
    expect(tool?.function.name).toBe('ask_user_question');
    expect(tool?.function.strict).toBe(true);
  });

  it('answers a strict-mode call with the tool message the model reads', async () => {
    const args = JSON.stringify({
      questions: [
        {
          id: 'database',
          question: 'Which database should the service use?',
          header: 'Database',
          options: [
            { label: 'Postgres (Recommended)', description: 'Mature and already used by the team.' },
            { label: 'SQLite', description: null },
          ],
          multi_select: null,
        },
        { id: 'name', question: 'What is the service called?', header: null, options: null, multi_select: null },
      ],
    });
    const message = await assistant().handleToolCall({ id: 'call_1', function: { name: 'ask_user_question', arguments: args } });
    expect(message).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content: '{"answers":[{"id":"database","selected":["Postgres (Recommended)"]},{"id":"name","selected":[]}]}',
    });
  });

  it('returns a model mistake as an error message instead of throwing', async () => {
    const message = await assistant().handleToolCall({ id: 'call_2', function: { name: 'ask_user_question', arguments: '{"questions":[]}' } });
    expect(message?.content).toMatch(/^Error: Invalid arguments for ask_user_question: questions is empty/);
  });

  it('leaves calls of other tools alone', async () => {
    expect(await assistant().handleToolCall({ id: 'call_3', function: { name: 'read_file', arguments: '{}' } })).toBeUndefined();
  });
});
