import { askApproval, type ApprovalOutcome, type AskApprovalOptions } from '@askseam/user-questions';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { artifactsDir } from './support/browser.js';
import { cardOf, focused, useBrowserTest, waitForQuestion } from './support/fixture.js';
import { transports } from './support/stage.js';

/** The decision without who made it (the quorum test below checks `by`). */
function decided({ by: _by, ...decision }: ApprovalOutcome): Omit<ApprovalOutcome, 'by'> {
  return decision;
}

// Everything here is about the element, not the wire: it runs over both transports.
describe.each(transports)('over %s', (transport) => {
  const t = useBrowserTest(transport);

  const tool = {
    name: 'delete_branch',
    description: 'Deletes a git branch on the remote.',
    input: { repository: 'askseam/askseam', branch: 'feature/approvals', force: true, keep: null, retries: 2 },
  };
  const heading = 'Allow the agent to run delete_branch?';

  /** The agent asks for approval through the seam, as a framework adapter would. */
  function ask(options: Partial<AskApprovalOptions> = {}): Promise<ApprovalOutcome> {
    return t.track(askApproval(t.stage.userQuestions, { tool, agent: t.stage.agent, signal: t.signal, ...options }));
  }

  const json = (page: Page) => page.getByRole('region', { name: 'Arguments (JSON)' });

  describe('<askseam-questions> approval card', () => {
    it('shows a quorum approval\'s progress as votes come in, stays for the next vote after its own, and resolves with every approver', async () => {
      const page = await t.mount();
      const decision = ask({ quorum: { approvals: 3 } });
      await waitForQuestion(page, heading);
      const progress = cardOf(page).locator('.quorum');
      expect(await progress.textContent()).toBe('0 of 3 approvals');
      // Other approvers vote from a chat channel: the card on screen shows each vote.
      const slack = t.stage.host.openChannel({ via: 'slack', onQuestion: () => {}, onSettled: () => {} });
      const rpcId = slack.pending()[0]!.rpcId;
      const approveAs = (user: string) =>
        slack.respond(rpcId, { ok: true, value: { sessionId: t.stage.agent.id, answer: { answers: [{ id: 'tool-approval', selected: ['Approve'] }] } } }, { user, principalId: user });
      expect(await approveAs('alex')).toMatchObject({ accepted: true });
      await expect.poll(() => progress.textContent()).toBe('1 of 3 approvals (by @alex)');

      // The page's own vote counts, and the card stays, unlocked, for the vote still missing.
      await page.getByRole('button', { name: 'Approve' }).click();
      await expect.poll(() => progress.textContent()).toMatch(/^2 of 3 approvals \(by @alex, @.+\)$/);
      expect(await page.getByRole('button', { name: 'Approve' }).isEnabled()).toBe(true);
      await cardOf(page).screenshot({ path: `${artifactsDir}approval-quorum.png` });

      expect(await approveAs('sam')).toMatchObject({ accepted: true });
      const outcome = await decision;
      expect(outcome.approved).toBe(true);
      expect(outcome.by?.map((person) => person.principalId)).toEqual(['alex', expect.any(String), 'sam']);
      expect(outcome.by?.[0]).toEqual({ principalId: 'alex', via: 'slack', user: 'alex' });
      await expect.poll(() => cardOf(page).count()).toBe(0);
      slack.close();
    });

    it('shows the tool, its description, the reason and the arguments as JSON text, and approves (screenshot)', async () => {
      const page = await t.mount();
      const decision = ask({ reason: 'The branch was **merged** yesterday.', urgency: 'high' });
      await waitForQuestion(page, heading);
      const card = cardOf(page);
      expect(await card.locator('.chip').textContent()).toBe('Tool approval');
      expect(await card.locator('.urgency').textContent()).toContain('Urgent');
      expect(await card.locator('.tool-name').textContent()).toBe('delete_branch');
      expect(await card.locator('.tool-description').textContent()).toBe('Deletes a git branch on the remote.');
      // The reason is the question's detail: Markdown, sanitised.
      expect(await card.locator('.detail strong').textContent()).toBe('merged');
      expect(await json(page).textContent()).toBe(JSON.stringify(tool.input, null, 2));
      expect(await json(page).isVisible()).toBe(true);
      // An approval card, not the composer: no radio buttons.
      expect(await page.getByRole('radio').count()).toBe(0);
      await card.screenshot({ path: `${artifactsDir}approval.png` });

      await page.getByRole('button', { name: 'Approve' }).click();
      expect(decided(await decision)).toEqual({ approved: true });
    });

    it('denies with the Deny button', async () => {
      const page = await t.mount();
      const decision = ask();
      await waitForQuestion(page, heading);
      await page.getByRole('button', { name: 'Deny' }).click();
      expect(decided(await decision)).toEqual({ approved: false });
      expect(t.stage.events.find((event) => event.type === 'answered')).toMatchObject({ answer: { answers: [{ id: 'tool-approval', selected: ['Deny'] }] } });
    });

    it('denies with the reason written in the box, sent as the custom answer', async () => {
      const page = await t.mount();
      const decision = ask();
      await waitForQuestion(page, heading);
      await page.getByRole('textbox', { name: 'Reason for denying (optional)' }).fill('Someone still works on it.');
      await page.getByRole('button', { name: 'Deny' }).click();
      expect(decided(await decision)).toEqual({ approved: false, reason: 'Someone still works on it.' });
      expect(t.stage.events.find((event) => event.type === 'answered')).toMatchObject({
        answer: { answers: [{ id: 'tool-approval', selected: [], custom: 'Someone still works on it.' }] },
      });
    });

    it('denies with Enter in the reason box; Shift+Enter is a new line', async () => {
      const page = await t.mount();
      const decision = ask();
      await waitForQuestion(page, heading);
      await page.getByRole('textbox', { name: 'Reason for denying (optional)' }).click();
      await page.keyboard.type('Not today.');
      await page.keyboard.press('Shift+Enter');
      await page.keyboard.type('Ask me on Monday.');
      expect(t.stage.host.pending()).toHaveLength(1);
      await page.keyboard.press('Enter');
      expect(decided(await decision)).toEqual({ approved: false, reason: 'Not today.\nAsk me on Monday.' });
    });

    it('does not drop a written reason when Approve is pressed: it asks to send or clear it first', async () => {
      const page = await t.mount();
      const decision = ask();
      await waitForQuestion(page, heading);
      const reason = page.getByRole('textbox', { name: 'Reason for denying (optional)' });
      await reason.fill('Wait for the release.');
      await page.getByRole('button', { name: 'Approve' }).click();
      expect(await page.getByRole('alert').textContent()).toBe('You wrote a reason to deny: press Deny to send it, or clear it to approve.');
      expect(await focused(page)).toBe('reason');
      expect(t.stage.host.pending()).toHaveLength(1);
      await reason.fill('');
      await page.getByRole('button', { name: 'Approve' }).click();
      expect(decided(await decision)).toEqual({ approved: true });
    });

    it('asks for a reason when the question offers no deny option and Deny is pressed empty', async () => {
      const page = await t.mount();
      const answer = t.ask([
        { id: 'run', question: 'Run the backup now?', options: [{ label: 'Run it' }], intent: { kind: 'tool-approval', approve: 'Run it', tool: { name: 'backup', input: {} } } },
      ]);
      await waitForQuestion(page, 'Run the backup now?');
      await page.getByRole('button', { name: 'Deny' }).click();
      const reason = page.getByRole('textbox', { name: 'Reason for denying (optional)' });
      expect(await reason.getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByRole('alert').textContent()).toBe('Write why you deny it first, or approve it.');
      await reason.fill('The disk is full.');
      expect(await reason.getAttribute('aria-invalid')).toBeNull();
      await page.getByRole('button', { name: 'Deny' }).click();
      expect(await answer).toEqual({ answers: [{ id: 'run', selected: [], custom: 'The disk is full.' }] });
    });

    it('folds and unfolds the arguments, keeps the fold across a redraw, and starts long arguments folded', async () => {
      const page = await t.mount();
      void ask();
      await waitForQuestion(page, heading);
      await page.getByText('Arguments', { exact: true }).click();
      expect(await json(page).isVisible()).toBe(false);
      // A refused Approve redraws the card; the fold stays as the person left it.
      await page.getByRole('textbox', { name: 'Reason for denying (optional)' }).fill('x');
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByRole('alert').waitFor();
      expect(await json(page).isVisible()).toBe(false);
      await page.getByText('Arguments', { exact: true }).click();
      expect(await json(page).isVisible()).toBe(true);
      await page.getByRole('button', { name: 'Dismiss' }).click();
      await page.getByRole('heading', { name: heading }).waitFor({ state: 'detached' });

      const long = Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`key${index}`, index]));
      void ask({ tool: { name: 'bulk_update', input: long } });
      await waitForQuestion(page, 'Allow the agent to run bulk_update?');
      expect(await json(page).isVisible()).toBe(false);
      await page.getByText('Arguments', { exact: true }).click();
      expect(await json(page).textContent()).toContain('"key39": 39');
    });

    it('never starts arguments that are not an object folded: there are no keys to name above the fold', async () => {
      const page = await t.mount();
      void ask({ tool: { name: 'bulk_delete', input: Array.from({ length: 40 }, (_, index) => `/data/${index}`) } });
      await waitForQuestion(page, 'Allow the agent to run bulk_delete?');
      expect(await cardOf(page).locator('.argument-keys').count()).toBe(0);
      expect(await json(page).isVisible()).toBe(true);
    });

    it('shows what will run before the agent\'s words: every argument named even when folded, the reason framed as unverified', async () => {
      const page = await t.mount();
      // 24 harmless keys fold the arguments; the 25th is the one that matters, and the reason shows a fake argument list.
      const padding = Object.fromEntries(Array.from({ length: 24 }, (_, index) => [`note_${index}`, 'harmless']));
      const input = { ...padding, rm_rf_target: '/' };
      const reason = ['Routine cleanup of old notes.', '', '**Arguments**', '', '```json', '{ "note_0": "harmless" }', '```'].join('\n');
      void ask({ tool: { name: 'cleanup', description: 'Tidies the notes.', input }, reason });
      await waitForQuestion(page, 'Allow the agent to run cleanup?');
      const card = cardOf(page);
      const call = card.getByRole('group', { name: 'This will run' });
      const agent = card.getByRole('group', { name: 'The agent says (unverified)' });
      expect([await call.count(), await agent.count()]).toEqual([1, 1]);

      // The arguments start folded, yet every key is named, the last one too, outside the fold.
      expect(await json(page).isVisible()).toBe(false);
      expect(await call.locator('.tool-name').textContent()).toBe('cleanup');
      expect(await call.locator('.argument-keys').textContent()).toBe(`25 keys: ${Object.keys(input).join(', ')}`);
      const key = call.locator('.argument-keys code', { hasText: 'rm_rf_target' });
      expect(await key.isVisible()).toBe(true);
      expect(await key.evaluate((node) => node.closest('details:not([open])') === null)).toBe(true);

      // The tool call comes first; the model's Markdown (its fake **Arguments** included) sits in the agent's frame only.
      expect(await call.evaluate((node, other) => (node.compareDocumentPosition(other!) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0, await agent.elementHandle())).toBe(true);
      expect(await agent.locator('.detail strong').textContent()).toBe('Arguments');
      expect(await agent.locator('.tool-description').textContent()).toBe('Tidies the notes.');
      expect(await call.locator('.detail, strong').count()).toBe(0);
      expect(await card.locator('.detail').count()).toBe(1);
      await card.screenshot({ path: `${artifactsDir}approval-padded.png` });
    });

    it('dismisses the card, which the asker reads as ASK_CANCELLED, not as a denial', async () => {
      const page = await t.mount();
      const decision = ask();
      await waitForQuestion(page, heading);
      await page.getByRole('button', { name: 'Dismiss' }).click();
      await expect(decision).rejects.toMatchObject({ code: 'ASK_CANCELLED' });
    });

    it('moves through the card with Tab in reading order, and a number key approves nothing', async () => {
      const page = await t.mount();
      void ask();
      await waitForQuestion(page, heading);
      await page.getByRole('button', { name: 'Approve' }).focus();
      await page.keyboard.press('1');
      await page.keyboard.press('2');
      expect(t.stage.host.pending()).toHaveLength(1);
      await page.getByText('Arguments', { exact: true }).focus();
      const order: (string | undefined)[] = [];
      for (let step = 0; step < 5; step += 1) {
        await page.keyboard.press('Tab');
        order.push(await focused(page));
      }
      expect(order).toEqual(['arguments', 'approve', 'deny', 'reason', 'dismiss']);
      // Enter on the summary folds the arguments; Enter on Approve approves.
      await page.getByText('Arguments', { exact: true }).focus();
      await page.keyboard.press('Enter');
      expect(await json(page).isVisible()).toBe(false);
    });

    it('speaks Chinese with lang="zh", and the zh approval answers 批准', async () => {
      const page = await t.mount({ lang: 'zh' });
      const decision = ask({ lang: 'zh' });
      await waitForQuestion(page, '允许智能体运行 delete_branch 吗？');
      const card = cardOf(page);
      expect(await card.locator('.chip').textContent()).toBe('工具审批');
      expect(await card.locator('.tool dt').allTextContents()).toEqual(['工具', '参数名', '用途']);
      expect(await card.locator('.frame-label').allTextContents()).toEqual(['将要运行', '智能体的说法（未经核实）']);
      expect(await card.locator('.argument-keys').textContent()).toBe('共 5 个：repository, branch, force, keep, retries');
      expect(await card.locator('summary').textContent()).toBe('参数');
      expect(await page.getByRole('textbox', { name: '拒绝理由（可选）' }).isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: '忽略' }).isVisible()).toBe(true);
      await page.getByRole('button', { name: '批准' }).click();
      expect(decided(await decision)).toEqual({ approved: true });
    });
  });

  // 203.0.113.0/24 is TEST-NET-3: nothing answers there, and no request to it may even start.
  const remote = 'http://203.0.113.7';

  describe('the approval card with hostile model text', () => {
    const hostileName = `<img src=x onerror="window.__xss='name'"><script>window.__xss='name-script'</script>[click](javascript:window.__xss='name-link')`;
    const rtl = 'invoice\u202Efdp.exe';
    const long = 'A'.repeat(20_000);
    const hostileInput = {
      html: `<img src="${remote}/a.png" onerror="window.__xss='input'">`,
      script: `<script>window.__xss='input-script'</script>`,
      markdown: `[docs](javascript:window.__xss='md') ![pixel](${remote}/pixel.png) **bold**`,
      file: rtl,
      long,
    };
    const hostileDescription = `<b onmouseover="window.__xss='description'">Bold?</b> [link](${remote}/x) <iframe src="${remote}/frame"></iframe>`;

    it('shows tool names, descriptions and arguments literally: nothing runs, loads or becomes markup', async () => {
      const page = await t.mount();
      const decision = ask({ tool: { name: hostileName, description: hostileDescription, input: hostileInput } });
      await waitForQuestion(page, /Allow the agent to run/);
      const card = cardOf(page);

      expect(await card.locator('img, script, iframe, b, a, strong').count()).toBe(0);
      expect(await card.locator('.tool-name').textContent()).toBe(hostileName);
      expect(await card.locator('h2').textContent()).toBe(`Allow the agent to run ${hostileName}?`);
      expect(await card.locator('.tool-description').textContent()).toBe(hostileDescription);
      // The JSON view is the JSON text, with the right-to-left override shown as its escape.
      const shown = await json(page).textContent();
      expect(shown).toBe(JSON.stringify(hostileInput, null, 2).replace('\u202E', '\\u202e'));
      expect(shown).toContain('"file": "invoice\\u202efdp.exe"');
      expect(shown).not.toContain('\u202E');
      const handlerAttributes = await card.evaluate((node) =>
        [node, ...node.querySelectorAll('*')].flatMap((each) => [...each.attributes].map((attribute) => attribute.name)).filter((name) => name.startsWith('on')),
      );
      expect(handlerAttributes).toEqual([]);
      // A 20 000-character value wraps inside the card instead of widening the page.
      expect(await card.evaluate((node) => node.scrollWidth <= node.clientWidth)).toBe(true);

      await card.locator('.tool-description').hover();
      await card.locator('.tool-name').click();
      await page.getByRole('button', { name: 'Approve' }).click();
      expect(decided(await decision)).toEqual({ approved: true });
      expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
      expect(t.requests.filter((url) => !url.startsWith(`${t.stage.origin}/`))).toEqual([]);
      expect(t.pageErrors).toEqual([]);
    });

    it('shows a right-to-left override in a tool name as its escape, so the name cannot be made to read backwards', async () => {
      const page = await t.mount();
      void ask({ tool: { name: `run_${rtl}`, input: {} } });
      await waitForQuestion(page, /Allow the agent to run/);
      expect(await cardOf(page).locator('.tool-name').textContent()).toBe('run_invoice\\u202efdp.exe');
      expect(await cardOf(page).locator('h2').textContent()).toBe('Allow the agent to run run_invoice\\u202efdp.exe?');
    });
  });
});
