import { agentAnswerer, type AgentAnswerContext } from '@askseam/host-ws';
import type { AskUserQuestionItem } from '@askseam/user-questions';
import { describe, expect, it } from 'vitest';
import { useBrowserTest, waitForQuestion } from './support/fixture.js';
import { transports } from './support/stage.js';

// A host route whose first tier is the page's person (the token principal) and a supervising agent,
// in real Chromium: when the agent answers the question the person is looking at, the element says
// who did instead of letting the card vanish unexplained.

/** The supervisor answers each question once the test lets it (`release`). */
function heldSupervisor() {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const supervisor = agentAnswerer({
    name: 'supervisor',
    answer: async (questions: AskUserQuestionItem[], _context: AgentAnswerContext) => {
      await released;
      return { answers: [{ id: questions[0]!.id, selected: ['Yes'] }] };
    },
  });
  return { supervisor, release: () => release() };
}

describe.each(transports)('over %s', (transport) => {
  const held = heldSupervisor();
  const t = useBrowserTest(transport, { route: () => [{ answerers: [{ principal: 'token' }, held.supervisor] }] });

  it('says "Answered by agent supervisor" when the route\'s agent answers the question on screen', async () => {
    const page = await t.mount();
    const asking = t.ask([{ id: 'deploy', question: 'Deploy the hotfix now?', options: [{ label: 'Yes' }, { label: 'No' }] }]);
    await waitForQuestion(page, 'Deploy the hotfix now?');
    held.release();
    await expect(asking).resolves.toEqual({ answers: [{ id: 'deploy', selected: ['Yes'] }] });
    const note = page.locator('askseam-questions .status[data-status="answered-by-agent"]');
    await note.waitFor();
    expect(await note.textContent()).toBe('Answered by agent supervisor.');
    expect(await page.getByRole('heading', { name: 'Deploy the hotfix now?' }).count()).toBe(0);
  });
});
