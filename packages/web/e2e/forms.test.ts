import type { AskUserQuestionItem } from '@askseam/user-questions';
import { describe, expect, it } from 'vitest';
import { artifactsDir } from './support/browser.js';
import { cardOf, focused, useBrowserTest, waitForQuestion } from './support/fixture.js';
import { transports } from './support/stage.js';

// Typed inputs travel as the seam checked them: userQuestions.ask → the real host → the wire
// (question/requested carries `input`, `required`, `placeholder` and the request's `urgency`) →
// the client → the element, and the answer goes back the same way through the host's checks.

// Everything here is about the element, not the wire: it runs over both transports.
describe.each(transports)('over %s', (transport) => {
  const t = useBrowserTest(transport);

  /**
   * One question of every input kind, in the order a person meets them, on the pager: the plan
   * question declares no input (a plain single-select, drawn as `select` is), so the batch is not a
   * form (`isFormBatch`) and each question gets its own page. Form pages are in form-page.test.ts.
   */
  const everyKind: AskUserQuestionItem[] = [
    { id: 'name', header: 'Project', question: 'What is the project called?', input: { kind: 'text', maxLength: 20 }, required: true, placeholder: 'e.g. ledger' },
    { id: 'summary', question: 'Describe it in a few lines.', input: { kind: 'textarea', maxLength: 200 }, placeholder: 'What it does, for whom' },
    { id: 'team', question: 'How many people work on it?', input: { kind: 'number', min: 1, max: 50, step: 0.5 }, required: true },
    { id: 'plan', question: 'Which plan?', options: [{ label: 'Free' }, { label: 'Team (Recommended)', description: 'Shared billing.' }] },
    { id: 'targets', question: 'Which platforms?', input: { kind: 'multi_select' }, options: [{ label: 'Linux' }, { label: 'macOS' }, { label: 'Windows' }], required: true },
    { id: 'licence', question: 'Accept the licence terms?', input: { kind: 'checkbox' }, required: true },
    { id: 'start', question: 'When should work start?', input: { kind: 'date', min: '2026-01-01', max: '2026-12-31' } },
  ];

  const valueInput = (selector: string) => `askseam-questions input${selector}`;

  describe('<askseam-questions> forms', () => {
    it('answers a form with one question of every input kind through the real host, with native controls', async () => {
      const page = await t.mount();
      const answer = t.ask(everyKind);

      await waitForQuestion(page, 'What is the project called?');
      const name = page.getByRole('textbox', { name: 'What is the project called?' });
      expect(await name.evaluate((input: HTMLInputElement) => [input.type, input.maxLength, input.placeholder, input.getAttribute('aria-required')])).toEqual(['text', 20, 'e.g. ledger', 'true']);
      expect(await page.getByText('Required', { exact: true }).isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: 'Skip this question' }).count()).toBe(0);
      expect(await page.getByText('Up to 20 characters').isVisible()).toBe(true);
      await name.fill('ledger');
      await name.press('Enter');

      await waitForQuestion(page, 'Describe it in a few lines.');
      const summary = page.getByRole('textbox', { name: 'Describe it in a few lines.' });
      expect(await summary.evaluate((area) => [area.tagName, area.getAttribute('maxlength'), area.getAttribute('placeholder'), area.hasAttribute('aria-required')])).toEqual([
        'TEXTAREA',
        '200',
        'What it does, for whom',
        false,
      ]);
      expect(await page.getByText('Required', { exact: true }).count()).toBe(0);
      await summary.click();
      await page.keyboard.type('Double-entry bookkeeping');
      await page.keyboard.press('Shift+Enter');
      await page.keyboard.type('for small shops');
      await page.keyboard.press('Enter');

      await waitForQuestion(page, 'How many people work on it?');
      const team = page.getByRole('spinbutton', { name: 'How many people work on it?' });
      expect(await team.evaluate((input: HTMLInputElement) => [input.type, input.min, input.max, input.step, input.inputMode])).toEqual(['number', '1', '50', '0.5', 'decimal']);
      expect(await page.getByText('From 1 to 50, in steps of 0.5').isVisible()).toBe(true);
      // What the number input reports for "4.5e0" is not what the seam reads; the plain decimal is sent.
      await team.fill('4.5e0');
      await page.getByRole('button', { name: 'Next' }).click();

      await waitForQuestion(page, 'Which plan?');
      expect(await page.getByRole('radio').count()).toBe(2);
      await page.getByRole('radio', { name: /Team/ }).check();
      await page.getByRole('button', { name: 'Next' }).click();

      await waitForQuestion(page, 'Which platforms?');
      await page.getByRole('checkbox', { name: 'Linux' }).check();
      await page.getByRole('checkbox', { name: 'macOS' }).check();
      await page.getByRole('button', { name: 'Next' }).click();

      await waitForQuestion(page, 'Accept the licence terms?');
      const licence = page.getByRole('checkbox', { name: 'Accept the licence terms?' });
      expect(await licence.isChecked()).toBe(false);
      await licence.check();
      await cardOf(page).screenshot({ path: `${artifactsDir}form-checkbox.png` });
      await page.getByRole('button', { name: 'Next' }).click();

      await waitForQuestion(page, 'When should work start?');
      const start = page.locator(valueInput('[type="date"]'));
      expect(await start.evaluate((input: HTMLInputElement) => [input.min, input.max])).toEqual(['2026-01-01', '2026-12-31']);
      expect(await page.getByText('From Jan 1, 2026 to Dec 31, 2026').isVisible()).toBe(true);
      await start.fill('2026-03-02');
      await cardOf(page).screenshot({ path: `${artifactsDir}form-date.png` });
      await page.getByRole('button', { name: 'Submit' }).click();

      expect(await answer).toEqual({
        answers: [
          { id: 'name', selected: [], custom: 'ledger' },
          { id: 'summary', selected: [], custom: 'Double-entry bookkeeping\nfor small shops' },
          { id: 'team', selected: [], custom: '4.5' },
          { id: 'plan', selected: ['Team (Recommended)'] },
          { id: 'targets', selected: ['Linux', 'macOS'] },
          { id: 'licence', selected: [], custom: 'true' },
          { id: 'start', selected: [], custom: '2026-03-02' },
        ],
      });
    });

    it('types a secret into a masked box, whether marked sensitive or worded as one, and the host logs it redacted', async () => {
      const page = await t.mount();
      const answer = t.ask([
        { id: 'code', question: 'The code from the letter', input: { kind: 'text' }, sensitive: true },
        { id: 'key', question: 'Paste your API key', input: { kind: 'text' } },
        { id: 'name', question: 'Your name', input: { kind: 'text' } },
      ]);
      // Three typed inputs make one form page: both secrets masked, the name in plain text.
      await waitForQuestion(page, 'The code from the letter');
      const masked = page.locator(valueInput('[type="password"]'));
      expect(await masked.count()).toBe(2);
      // Drawn like the plain box beside it: same border, padding and width.
      const look = (element: Element) => {
        const style = getComputedStyle(element);
        return { border: style.borderTopStyle, padding: style.paddingLeft, width: element.getBoundingClientRect().width };
      };
      expect(await masked.nth(0).evaluate(look)).toEqual(await page.getByRole('textbox', { name: 'Your name' }).evaluate(look));
      await masked.nth(0).fill('4711-secret');
      await masked.nth(1).fill('sk-live-abc');
      await page.getByRole('textbox', { name: 'Your name' }).fill('Ada');
      await page.getByRole('button', { name: 'Submit' }).click();
      expect(await answer).toEqual({
        answers: [
          { id: 'code', selected: [], custom: '4711-secret' },
          { id: 'key', selected: [], custom: 'sk-live-abc' },
          { id: 'name', selected: [], custom: 'Ada' },
        ],
      });
      const answered = t.stage.events.find((event) => event.type === 'answered');
      expect(JSON.stringify(answered)).not.toMatch(/4711-secret|sk-live-abc/);
    });

    it('masks a free-text secret, a sensitive textarea and the own-answer box of a sensitive choice in one-line password boxes', async () => {
      const page = await t.mount();
      const answer = t.ask([
        // No input and no options: worded as a secret, so it is one.
        { id: 'openai', question: 'What is your OpenAI API key?', required: true },
        { id: 'notes', question: 'Recovery notes', input: { kind: 'textarea', maxLength: 12 }, sensitive: true },
        { id: 'vault', question: 'Which vault entry?', options: [{ label: 'Production' }, { label: 'Staging' }], sensitive: true },
      ]);
      const masked = page.locator(valueInput('[type="password"]'));

      await waitForQuestion(page, 'What is your OpenAI API key?');
      expect(await page.locator('askseam-questions textarea').count()).toBe(0);
      expect(await masked.evaluate((input: HTMLInputElement) => [input.autocomplete, input.getAttribute('aria-required')])).toEqual(['off', 'true']);
      await masked.fill('sk-proj-abc123');
      await masked.press('Enter');

      await waitForQuestion(page, 'Recovery notes');
      expect(await page.locator('askseam-questions textarea').count()).toBe(0);
      expect(await masked.evaluate((input: HTMLInputElement) => input.maxLength)).toBe(12);
      await masked.fill('seed words');
      await masked.press('Enter');

      await waitForQuestion(page, 'Which vault entry?');
      expect(await page.getByRole('radio').count()).toBe(2);
      await masked.fill('legacy-vault');
      // Back and forth keeps the typed secret as the draft.
      await page.getByRole('button', { name: 'Back' }).click();
      await waitForQuestion(page, 'Recovery notes');
      expect(await masked.inputValue()).toBe('seed words');
      await page.getByRole('button', { name: 'Next' }).click();
      await waitForQuestion(page, 'Which vault entry?');
      expect(await masked.inputValue()).toBe('legacy-vault');
      await masked.press('Enter');

      expect(await answer).toEqual({
        answers: [
          { id: 'openai', selected: [], custom: 'sk-proj-abc123' },
          { id: 'notes', selected: [], custom: 'seed words' },
          { id: 'vault', selected: [], custom: 'legacy-vault' },
        ],
      });
      const answered = t.stage.events.find((event) => event.type === 'answered');
      expect(JSON.stringify(answered)).not.toMatch(/sk-proj-abc123|seed words|legacy-vault/);
    });

    it('refuses to submit while a required question is unanswered, and offers it no Skip', async () => {
      const page = await t.mount();
      void t.ask([
        { id: 'owner', question: 'Who owns the service?', input: { kind: 'text' }, required: true },
        // An open question without an input kind, so the batch keeps the pager.
        { id: 'note', question: 'Anything else?' },
      ]);
      await waitForQuestion(page, 'Who owns the service?');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('button', { name: 'Skip this question' }).click();
      await page.getByRole('button', { name: 'Submit' }).click();

      await waitForQuestion(page, 'Who owns the service?');
      const owner = page.getByRole('textbox', { name: 'Who owns the service?' });
      expect(await owner.getAttribute('aria-invalid')).toBe('true');
      expect(await owner.getAttribute('aria-describedby')).toContain('q-invalid');
      expect(await page.getByRole('alert').textContent()).toBe('This question is required: answer it before submitting.');
      expect(await focused(page)).toBe('heading');
      expect(t.stage.events.some((event) => event.type === 'answered' || event.type === 'response-rejected')).toBe(false);
      expect(t.stage.host.pending()).toHaveLength(1);

      await owner.fill('payments team');
      expect(await owner.getAttribute('aria-invalid')).toBeNull();
      expect(await page.getByRole('alert').count()).toBe(0);
    });

    it('shows a number out of bounds, off its step or unreadable on the spot and sends only a fitting one', async () => {
      const page = await t.mount();
      const answer = t.ask([{ id: 'replicas', question: 'How many replicas?', input: { kind: 'number', min: 1, max: 9, step: 2 }, required: true }]);
      await waitForQuestion(page, 'How many replicas?');
      const replicas = page.getByRole('spinbutton', { name: 'How many replicas?' });
      const alert = page.getByRole('alert');

      await replicas.fill('12');
      await replicas.press('Enter');
      expect(await alert.textContent()).toBe('Enter a number from 1 to 9.');
      expect(await replicas.getAttribute('aria-invalid')).toBe('true');
      await cardOf(page).screenshot({ path: `${artifactsDir}form-number-invalid.png` });

      await replicas.fill('4');
      // Once an error shows, it follows the value as the person types.
      await expect.poll(() => alert.textContent()).toBe('Enter a number in steps of 2, counting from 1.');

      // "1e" is text the browser cannot read as a number (its value is ""); it stays for the person to fix.
      await replicas.fill('');
      await replicas.pressSequentially('1e');
      await page.getByRole('button', { name: 'Submit' }).click();
      expect(await alert.textContent()).toBe('Enter a number, like 42 or -3.5.');
      expect(await replicas.evaluate((input: HTMLInputElement) => input.validity.badInput)).toBe(true);
      expect(await focused(page)).toBe('value');
      expect(t.stage.events.some((event) => event.type === 'answered' || event.type === 'response-rejected')).toBe(false);

      await replicas.fill('5');
      expect(await alert.count()).toBe(0);
      await page.getByRole('button', { name: 'Submit' }).click();
      expect(await answer).toEqual({ answers: [{ id: 'replicas', selected: [], custom: '5' }] });
    });

    it('refuses an impossible date and one outside its range, keeping what was typed', async () => {
      const page = await t.mount();
      const answer = t.ask([{ id: 'launch', question: 'Launch day?', input: { kind: 'date', min: '2026-01-01', max: '2026-06-30' }, required: true }]);
      await waitForQuestion(page, 'Launch day?');
      const launch = page.locator(valueInput('[type="date"]'));
      const alert = page.getByRole('alert');

      // February 30th, typed field by field as a person would (mm/dd/yyyy in en-US).
      await launch.focus();
      await page.keyboard.type('02302026');
      await page.getByRole('button', { name: 'Submit' }).click();
      expect(await alert.textContent()).toBe('Enter a complete, real date.');
      expect(await launch.getAttribute('aria-invalid')).toBe('true');
      expect(await launch.evaluate((input: HTMLInputElement) => input.validity.badInput)).toBe(true);

      await launch.fill('2026-07-01');
      await page.getByRole('button', { name: 'Submit' }).click();
      expect(await alert.textContent()).toBe('Choose a date from Jan 1, 2026 to Jun 30, 2026.');
      expect(t.stage.events.some((event) => event.type === 'answered' || event.type === 'response-rejected')).toBe(false);

      await launch.fill('2026-06-30');
      await page.getByRole('button', { name: 'Submit' }).click();
      expect(await answer).toEqual({ answers: [{ id: 'launch', selected: [], custom: '2026-06-30' }] });
    });

    it('answers a checkbox "true" when checked and "false" when left unchecked, required or not', async () => {
      const page = await t.mount();
      const answer = t.ask([
        { id: 'backup', question: 'Take a backup first?', input: { kind: 'checkbox' }, required: true },
        { id: 'notify', question: 'Notify the team?', input: { kind: 'checkbox' } },
      ]);
      // Two checkboxes are a form: both on one page.
      await waitForQuestion(page, 'Take a backup first?');
      await waitForQuestion(page, 'Notify the team?');
      // Either state answers a checkbox, so a required one has no Required mark.
      expect(await page.getByText('Required', { exact: true }).count()).toBe(0);
      expect(await page.getByText('Yes', { exact: true }).count()).toBe(2);
      await page.getByRole('checkbox', { name: 'Take a backup first?' }).press('Space');
      // Enter on a checkbox moves to the next field; the unchecked one is sent as "false".
      await page.getByRole('checkbox', { name: 'Take a backup first?' }).press('Enter');
      expect(await focused(page)).toBe('f1-value');
      await page.getByRole('button', { name: 'Submit' }).click();
      expect(await answer).toEqual({
        answers: [
          { id: 'backup', selected: [], custom: 'true' },
          { id: 'notify', selected: [], custom: 'false' },
        ],
      });
    });

    it('keeps typed values through a replay of the same request on a new connection', async () => {
      const page = await t.mount();
      const answer = t.ask([
        { id: 'cpu', question: 'CPU limit (cores)?', input: { kind: 'number', min: 0.5, max: 8, step: 0.5 } },
        { id: 'freeze', question: 'Freeze deploys from?', input: { kind: 'date' } },
      ]);
      // A form: both fields on one page.
      await waitForQuestion(page, 'CPU limit (cores)?');
      await page.getByRole('spinbutton', { name: 'CPU limit (cores)?' }).fill('2.5');
      await page.locator(valueInput('[type="date"]')).fill('2026-12-20');

      const element = page.locator('askseam-questions');
      await element.evaluate((node) => node.setAttribute('token', 'not-the-token'));
      await page.getByRole('heading', { name: 'Freeze deploys from?' }).waitFor({ state: 'detached' });
      await element.evaluate((node, token) => node.setAttribute('token', token), t.stage.token);
      await waitForQuestion(page, 'Freeze deploys from?');
      expect(await page.locator(valueInput('[type="date"]')).inputValue()).toBe('2026-12-20');
      expect(await page.getByRole('spinbutton', { name: 'CPU limit (cores)?' }).inputValue()).toBe('2.5');
      await page.getByRole('button', { name: 'Submit' }).click();
      expect(await answer).toEqual({
        answers: [
          { id: 'cpu', selected: [], custom: '2.5' },
          { id: 'freeze', selected: [], custom: '2026-12-20' },
        ],
      });
    });

    it('speaks Chinese on a form: the required mark, bounds, the checkbox and the errors', async () => {
      const page = await t.mount({ lang: 'zh' });
      const answer = t.ask([
        { id: 'budget', header: '预算', question: '每月预算是多少（元）？', input: { kind: 'number', min: 100, max: 5000 }, required: true, placeholder: '例如 800' },
        { id: 'invoice', question: '需要开发票吗？', input: { kind: 'checkbox' } },
      ]);
      await waitForQuestion(page, '每月预算是多少（元）？');
      expect(await page.getByText('必填', { exact: true }).isVisible()).toBe(true);
      expect(await page.getByText('范围 100 至 5000').isVisible()).toBe(true);
      expect(await page.getByText('按 Enter 继续').isVisible()).toBe(true);
      const budget = page.getByRole('spinbutton', { name: '每月预算是多少（元）？' });
      expect(await budget.getAttribute('placeholder')).toBe('例如 800');
      // A form: both fields on one page, the last one's hint says Enter submits.
      await waitForQuestion(page, '需要开发票吗？');
      expect(await page.getByText('按 Enter 提交').isVisible()).toBe(true);
      expect(await page.getByText('是', { exact: true }).isVisible()).toBe(true);
      await page.getByRole('button', { name: '提交' }).click();
      expect(await page.getByRole('alert').textContent()).toBe('此题必须回答，请先回答再提交。');
      expect(await focused(page)).toBe('f0-value');
      await budget.fill('9000');
      expect(await page.getByRole('alert').textContent()).toBe('请输入 100 到 5000 之间的数字。');
      // The reason is worded at render time: switching the language rewords it.
      await page.locator('askseam-questions').evaluate((element) => element.setAttribute('lang', 'en'));
      expect(await page.getByRole('alert').textContent()).toBe('Enter a number from 100 to 5000.');
      await page.locator('askseam-questions').evaluate((element) => element.setAttribute('lang', 'zh'));
      await budget.fill('1200');
      await cardOf(page).screenshot({ path: `${artifactsDir}form-zh.png` });
      await page.getByRole('checkbox', { name: '需要开发票吗？' }).check();
      await page.getByRole('button', { name: '提交' }).click();
      expect(await answer).toEqual({
        answers: [
          { id: 'budget', selected: [], custom: '1200' },
          { id: 'invoice', selected: [], custom: 'true' },
        ],
      });
    });
  });

  describe('<askseam-questions> urgency', () => {
    it('badges an urgent request and shows it before older, calmer ones (screenshot)', async () => {
      const page = await t.mount();
      const calm = t.ask([{ id: 'docs', question: 'Publish the docs today?', options: [{ label: 'Yes' }, { label: 'Later' }] }], { urgency: 'low' });
      await waitForQuestion(page, 'Publish the docs today?');
      expect(await page.locator('askseam-questions .urgency').count()).toBe(0);

      const urgent = t.ask(
        [
          {
            id: 'rollback',
            header: 'Incident',
            question: 'Error rate is 12% after the deploy. Roll back now?',
            options: [{ label: 'Roll back (Recommended)', description: 'Back to v1.4.2 in about two minutes.' }, { label: 'Keep v1.5.0 and watch' }],
          },
        ],
        { urgency: 'high' },
      );
      // Nobody had started on the calm one, so the urgent one takes the card.
      await waitForQuestion(page, 'Error rate is 12% after the deploy. Roll back now?');
      const badge = page.locator('askseam-questions .urgency');
      expect(await badge.getAttribute('data-urgency')).toBe('high');
      expect(await badge.locator('[aria-hidden="true"]').innerText()).toBe('Urgent');
      expect(await page.getByText('High urgency').count()).toBe(1); // what a screen reader hears
      expect(await page.getByText('1 more waiting').textContent()).toBe('1 more waiting');
      await cardOf(page).screenshot({ path: `${artifactsDir}urgent.png` });

      const soon = t.ask([{ id: 'cert', question: 'Renew the TLS certificate this week?', options: [{ label: 'Yes' }, { label: 'No' }] }], { urgency: 'medium' });
      await page.getByText('2 more waiting').waitFor();
      await page.getByRole('radio', { name: /Roll back/ }).check();
      await page.getByRole('button', { name: 'Submit' }).click();
      expect(await urgent).toEqual({ answers: [{ id: 'rollback', selected: ['Roll back (Recommended)'] }] });

      // Medium before low, whatever the age.
      await waitForQuestion(page, 'Renew the TLS certificate this week?');
      expect(await badge.locator('[aria-hidden="true"]').innerText()).toBe('Soon');
      expect(await page.getByText('Medium urgency').count()).toBe(1);
      await page.getByRole('radio', { name: 'Yes' }).check();
      await page.getByRole('button', { name: 'Submit' }).click();
      expect(await soon).toEqual({ answers: [{ id: 'cert', selected: ['Yes'] }] });
      await waitForQuestion(page, 'Publish the docs today?');
      await page.getByRole('radio', { name: 'Later' }).check();
      await page.getByRole('button', { name: 'Submit' }).click();
      expect(await calm).toEqual({ answers: [{ id: 'docs', selected: ['Later'] }] });
    });

    it('leaves the request a person started on screen when an urgent one arrives, and says one is waiting', async () => {
      const page = await t.mount({ lang: 'zh' });
      void t.ask([{ id: 'name', question: '服务叫什么名字？', input: { kind: 'text' } }]);
      await waitForQuestion(page, '服务叫什么名字？');
      await page.getByRole('textbox', { name: '服务叫什么名字？' }).fill('账本');

      void t.ask([{ id: 'stop', question: '磁盘快满了，现在停止写入吗？', options: [{ label: '停止' }, { label: '继续' }] }], { urgency: 'high' });
      await page.getByText('还有 1 个问题在等待，其中 1 个紧急').waitFor();
      expect(await page.getByRole('heading', { name: '服务叫什么名字？' }).isVisible()).toBe(true);
      expect(await page.getByRole('textbox', { name: '服务叫什么名字？' }).inputValue()).toBe('账本');

      await page.getByRole('button', { name: '提交' }).click();
      await waitForQuestion(page, '磁盘快满了，现在停止写入吗？');
      expect(await page.locator('askseam-questions .urgency [aria-hidden="true"]').innerText()).toBe('紧急');
      expect(await page.getByText('紧急程度：高').count()).toBe(1);
    });
  });
});
