import type { AskUserQuestionItem } from '@askseam/user-questions';
import { describe, expect, it } from 'vitest';
import { artifactsDir } from './support/browser.js';
import { cardOf, focused, useBrowserTest, waitForQuestion } from './support/fixture.js';

const t = useBrowserTest();

const plan = `# Add rate limiting to the public API

1. Put a token bucket in front of \`/v1/*\`, keyed by API key.
2. Return **429** with a \`Retry-After\` header when the bucket is empty.
3. Add a dashboard panel for rejected requests.

| Tier | Requests / minute |
| --- | --- |
| Free | 60 |
| Pro | 600 |
`;

/** The plan-review question exactly as exit_plan_mode asks it (DESIGN.md "plan-mode"). */
function planReview(detail: string): AskUserQuestionItem[] {
  return [
    {
      id: 'plan-review',
      header: 'Plan review',
      question: 'Approve this plan?',
      detail,
      options: [{ label: 'Approve' }, { label: 'Keep planning' }],
      intent: { kind: 'plan-review', approve: 'Approve' },
    },
  ];
}

describe('<askseam-questions> plan review', () => {
  it('shows the plan as Markdown and approves it (screenshot)', async () => {
    const page = await t.mount();
    const answer = t.ask(planReview(plan));
    await waitForQuestion(page, 'Approve this plan?');
    const region = page.getByRole('region', { name: 'Plan' });
    expect(await region.getByRole('heading', { name: 'Add rate limiting to the public API' }).isVisible()).toBe(true);
    expect(await region.locator('li').count()).toBe(3);
    expect(await region.locator('table td').first().textContent()).toBe('Free');
    // The plan card, not the composer: no pager, no radio buttons.
    expect(await page.getByRole('radio').count()).toBe(0);
    await cardOf(page).screenshot({ path: `${artifactsDir}plan-review.png` });

    await page.getByRole('button', { name: 'Approve' }).click();
    expect(await answer).toEqual({ answers: [{ id: 'plan-review', selected: ['Approve'] }] });
  });

  it('refuses the plan with feedback, sent as custom text without a choice', async () => {
    const page = await t.mount();
    const answer = t.ask(planReview(plan));
    await waitForQuestion(page, 'Approve this plan?');
    const feedback = page.getByRole('textbox', { name: 'Or tell the agent what to change' });
    await feedback.fill('Key the bucket by account, not by API key.');
    await page.getByRole('button', { name: 'Send feedback' }).click();
    expect(await answer).toEqual({ answers: [{ id: 'plan-review', selected: [], custom: 'Key the bucket by account, not by API key.' }] });
  });

  it('sends feedback with Enter from the feedback box', async () => {
    const page = await t.mount();
    const answer = t.ask(planReview(plan));
    await waitForQuestion(page, 'Approve this plan?');
    await page.getByRole('textbox', { name: 'Or tell the agent what to change' }).click();
    await page.keyboard.type('Split step 3 into its own change.');
    await page.keyboard.press('Enter');
    expect(await answer).toEqual({ answers: [{ id: 'plan-review', selected: [], custom: 'Split step 3 into its own change.' }] });
  });

  it('keeps planning through the decline option', async () => {
    const page = await t.mount();
    const answer = t.ask(planReview(plan));
    await waitForQuestion(page, 'Approve this plan?');
    await page.getByRole('button', { name: 'Keep planning' }).click();
    expect(await answer).toEqual({ answers: [{ id: 'plan-review', selected: ['Keep planning'] }] });
  });

  it('marks empty feedback invalid and sends nothing', async () => {
    const page = await t.mount();
    const answer = t.ask(planReview(plan));
    await waitForQuestion(page, 'Approve this plan?');
    await page.getByRole('button', { name: 'Send feedback' }).click();
    const feedback = page.getByRole('textbox', { name: 'Or tell the agent what to change' });
    expect(await feedback.getAttribute('aria-invalid')).toBe('true');
    expect(await focused(page)).toBe('feedback');
    expect(await page.getByRole('alert').textContent()).toBe('Write your feedback first, or choose one of the buttons.');
    expect(t.stage.host.pending()).toHaveLength(1);
    await page.getByRole('button', { name: 'Approve' }).click();
    expect(await answer).toEqual({ answers: [{ id: 'plan-review', selected: ['Approve'] }] });
  });

  it('dismisses the review, which the caller sees as ASK_CANCELLED', async () => {
    const page = await t.mount();
    const answer = t.ask(planReview(plan));
    await waitForQuestion(page, 'Approve this plan?');
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await expect(answer).rejects.toMatchObject({ code: 'ASK_CANCELLED' });
  });
});
