import { PlanMode, executeExitPlanMode } from '@askseam/plan-mode';
import type { AskUserQuestionItem } from '@askseam/user-questions';
import { describe, expect, it } from 'vitest';
import { artifactsDir } from './support/browser.js';
import { cardOf, focused, useBrowserTest, waitForQuestion } from './support/fixture.js';
import { transports } from './support/stage.js';

// Everything here is about the element, not the wire: it runs over both transports.
describe.each(transports)('over %s', (transport) => {
  const t = useBrowserTest(transport);

  const plan = `# Add rate limiting to the public API

  1. Put a token bucket in front of \`/v1/*\`, keyed by API key.
  2. Return **429** with a \`Retry-After\` header when the bucket is empty.
  3. Add a dashboard panel for rejected requests.

  | Tier | Requests / minute |
  | --- | --- |
  | Free | 60 |
  | Pro | 600 |
  `;

  const reviewQuestion = 'Approve this plan and start implementing?';

  /** The agent calls exit_plan_mode while in plan mode, as the demo's agent does. */
  function exitPlanMode() {
    const planMode = new PlanMode();
    planMode.enter(t.stage.agent.id);
    const result = t.track(
      executeExitPlanMode({ plan }, { userQuestions: t.stage.userQuestions, agent: t.stage.agent, planMode, signal: t.signal }),
    );
    return { planMode, result };
  }

  describe('<askseam-questions> plan review', () => {
    it('shows the plan as Markdown and approves it, which ends plan mode (screenshot)', async () => {
      const page = await t.mount();
      const { planMode, result } = exitPlanMode();
      await waitForQuestion(page, reviewQuestion);
      const region = page.getByRole('region', { name: 'Plan' });
      expect(await region.getByRole('heading', { name: 'Add rate limiting to the public API' }).isVisible()).toBe(true);
      expect(await region.locator('li').count()).toBe(3);
      expect(await region.locator('table td').first().textContent()).toBe('Free');
      // The plan card, not the composer: no pager, no radio buttons.
      expect(await page.getByRole('radio').count()).toBe(0);
      await cardOf(page).screenshot({ path: `${artifactsDir}plan-review.png` });

      await page.getByRole('button', { name: 'Approve' }).click();
      expect(await result).toEqual({ isError: false, text: 'The user approved the plan. Plan mode is off: implement the plan as written.' });
      expect(planMode.isActive(t.stage.agent.id)).toBe(false);
    });

    it('refuses the plan with feedback, which the agent reads while staying in plan mode', async () => {
      const page = await t.mount();
      const { planMode, result } = exitPlanMode();
      await waitForQuestion(page, reviewQuestion);
      const feedback = page.getByRole('textbox', { name: 'Or tell the agent what to change' });
      await feedback.fill('Key the bucket by account, not by API key.');
      await page.getByRole('button', { name: 'Send feedback' }).click();
      const outcome = await result;
      expect(outcome.isError).toBe(false);
      expect(outcome.text).toContain('\n\nKey the bucket by account, not by API key.\n\n');
      expect(planMode.isActive(t.stage.agent.id)).toBe(true);
      const answered = t.stage.events.find((event) => event.type === 'answered');
      expect(answered).toMatchObject({ answer: { answers: [{ id: 'plan-review', selected: [], custom: 'Key the bucket by account, not by API key.' }] } });
    });

    it('sends feedback with Enter from the feedback box', async () => {
      const page = await t.mount();
      const { result } = exitPlanMode();
      await waitForQuestion(page, reviewQuestion);
      await page.getByRole('textbox', { name: 'Or tell the agent what to change' }).click();
      await page.keyboard.type('Split step 3 into its own change.');
      await page.keyboard.press('Enter');
      expect((await result).text).toContain('Split step 3 into its own change.');
    });

    it('keeps planning through the decline option', async () => {
      const page = await t.mount();
      const { planMode, result } = exitPlanMode();
      await waitForQuestion(page, reviewQuestion);
      await page.getByRole('button', { name: 'Keep planning' }).click();
      expect((await result).text).toMatch(/^The user did not approve the plan\. You are still in plan mode/);
      expect(planMode.isActive(t.stage.agent.id)).toBe(true);
    });

    it('does not drop typed feedback when Approve is pressed: it asks to send or clear it first', async () => {
      const page = await t.mount();
      const { planMode, result } = exitPlanMode();
      await waitForQuestion(page, reviewQuestion);
      const feedback = page.getByRole('textbox', { name: 'Or tell the agent what to change' });
      await feedback.fill('Also cap burst size.');
      await page.getByRole('button', { name: 'Approve' }).click();
      expect(await page.getByRole('alert').textContent()).toBe('You wrote feedback: send it, or clear it to approve the plan as it is.');
      expect(t.stage.host.pending()).toHaveLength(1);

      await feedback.fill('');
      await page.getByRole('button', { name: 'Approve' }).click();
      expect((await result).text).toMatch(/^The user approved the plan/);
      expect(planMode.isActive(t.stage.agent.id)).toBe(false);
    });

    it('sends typed feedback when Keep planning is pressed, rather than dropping it', async () => {
      const page = await t.mount();
      const { result } = exitPlanMode();
      await waitForQuestion(page, reviewQuestion);
      await page.getByRole('textbox', { name: 'Or tell the agent what to change' }).fill('Start with the dashboard.');
      await page.getByRole('button', { name: 'Keep planning' }).click();
      expect((await result).text).toContain('\n\nStart with the dashboard.\n\n');
    });

    it('marks empty feedback invalid and sends nothing', async () => {
      const page = await t.mount();
      const { result } = exitPlanMode();
      await waitForQuestion(page, reviewQuestion);
      await page.getByRole('button', { name: 'Send feedback' }).click();
      const feedback = page.getByRole('textbox', { name: 'Or tell the agent what to change' });
      expect(await feedback.getAttribute('aria-invalid')).toBe('true');
      expect(await focused(page)).toBe('feedback');
      expect(await page.getByRole('alert').textContent()).toBe('Write your feedback first, or choose one of the buttons.');
      expect(t.stage.host.pending()).toHaveLength(1);
      await page.getByRole('button', { name: 'Approve' }).click();
      expect((await result).text).toMatch(/^The user approved the plan/);
    });

    it('dismisses the review, which the agent reads as "wait, still planning"', async () => {
      const page = await t.mount();
      const { result } = exitPlanMode();
      await waitForQuestion(page, reviewQuestion);
      await page.getByRole('button', { name: 'Dismiss' }).click();
      expect(await result).toMatchObject({ isError: true, code: 'ASK_CANCELLED' });
    });

    it('shows the generic composer instead when the batch is not a plan review', async () => {
      const page = await t.mount();
      const notAReview: AskUserQuestionItem[] = [
        {
          id: 'plan-review',
          question: 'Which of these plans?',
          detail: plan,
          options: [{ label: 'Approve' }, { label: 'Keep planning' }, { label: 'Something else' }],
          intent: { kind: 'plan-review', approve: 'Approve' },
        },
      ];
      const answer = t.ask(notAReview);
      await waitForQuestion(page, 'Which of these plans?');
      expect(await page.getByRole('radio').count()).toBe(3);
      await page.getByRole('radio', { name: 'Something else' }).check();
      await page.getByRole('button', { name: 'Submit' }).click();
      expect(await answer).toEqual({ answers: [{ id: 'plan-review', selected: ['Something else'] }] });
    });
  });
});
