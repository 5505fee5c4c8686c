import type { AskUserQuestionItem } from '@askseam/user-questions';
import { describe, expect, it } from 'vitest';
import { artifactsDir } from './support/browser.js';
import { cardOf, focused, holdNextAnswerAsStale, releaseSends, useBrowserTest, waitForQuestion } from './support/fixture.js';
import { transports } from './support/stage.js';

// A batch whose questions all declare an input kind (what the clarify tools make of DeerFlow's
// `fields`) is a form: the element shows it whole on one page. The answer still travels
// userQuestions.ask → the real host → the element and back through the host's checks.

// Everything here is about the element, not the wire: it runs over both transports.
describe.each(transports)('over %s', (transport) => {
  const t = useBrowserTest(transport);

  const threeFields: AskUserQuestionItem[] = [
    { id: 'service', header: 'Service', question: 'Which service is affected?', input: { kind: 'text', maxLength: 40 }, required: true, placeholder: 'e.g. billing' },
    { id: 'replicas', question: 'How many replicas should it run?', input: { kind: 'number', min: 1, max: 12 } },
    { id: 'window', question: 'Maintenance day?', input: { kind: 'date', min: '2026-01-01', max: '2026-12-31' } },
  ];

  const noAnswerYet = () => !t.stage.events.some((event) => event.type === 'answered' || event.type === 'response-rejected');

  describe('<askseam-questions> form page', () => {
    it('shows a three-field form on one page, marks every bad field at once, then sends the corrected values', async () => {
      const page = await t.mount();
      const answer = t.ask(threeFields);
      await waitForQuestion(page, 'Which service is affected?');

      // Every field on the one page, each with its own label; no pager, no Next, Back or Skip.
      const service = page.getByRole('textbox', { name: 'Which service is affected?' });
      const replicas = page.getByRole('spinbutton', { name: 'How many replicas should it run?' });
      const day = page.locator('askseam-questions input[type="date"]');
      expect(await page.getByRole('heading', { name: 'How many replicas should it run?' }).isVisible()).toBe(true);
      expect(await page.getByRole('heading', { name: 'Maintenance day?' }).isVisible()).toBe(true);
      expect(await page.getByRole('group', { name: 'Maintenance day?' }).locator('input[type="date"]').count()).toBe(1);
      expect(await day.getAttribute('aria-labelledby')).toBe('f2-heading');
      expect(await page.locator('askseam-questions .pager-count').count()).toBe(0);
      for (const name of ['Next', 'Back', 'Skip this question']) expect(await page.getByRole('button', { name }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Submit' }).count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Dismiss' }).count()).toBe(1);
      expect(await page.getByText('Required', { exact: true }).count()).toBe(1);
      expect(await service.getAttribute('aria-required')).toBe('true');
      expect(await page.getByText('From 1 to 12').isVisible()).toBe(true);

      // The required field empty and the number out of bounds: both are marked by one Submit.
      await replicas.fill('40');
      await day.fill('2026-05-04');
      await page.getByRole('button', { name: 'Submit' }).click();
      const serviceAlert = page.locator('askseam-questions #f0-invalid');
      const replicasAlert = page.locator('askseam-questions #f1-invalid');
      await serviceAlert.waitFor();
      expect(await serviceAlert.textContent()).toBe('This question is required: answer it before submitting.');
      expect(await replicasAlert.textContent()).toBe('Enter a number from 1 to 12.');
      expect(await page.getByRole('alert').count()).toBe(2);
      expect(await service.getAttribute('aria-invalid')).toBe('true');
      expect(await service.getAttribute('aria-describedby')).toContain('f0-invalid');
      expect(await replicas.getAttribute('aria-invalid')).toBe('true');
      expect(await replicas.getAttribute('aria-describedby')).toContain('f1-invalid');
      expect(await day.getAttribute('aria-invalid')).toBeNull();
      expect(await focused(page)).toBe('f0-value');
      await cardOf(page).screenshot({ path: `${artifactsDir}form-page.png` });
      expect(noAnswerYet()).toBe(true);
      expect(t.stage.host.pending()).toHaveLength(1);

      // Each mark follows its own field; Enter in a one-line field moves to the next field.
      await service.fill('billing');
      expect(await service.getAttribute('aria-invalid')).toBeNull();
      expect(await serviceAlert.count()).toBe(0);
      expect(await replicas.getAttribute('aria-invalid')).toBe('true');
      await service.press('Enter');
      expect(await focused(page)).toBe('f1-value');
      await replicas.fill('3');
      expect(await replicasAlert.count()).toBe(0);
      await replicas.press('Enter');
      expect(await focused(page)).toBe('f2-value');
      expect(noAnswerYet()).toBe(true);

      // Enter in the last field submits.
      await day.press('Enter');
      expect(await answer).toEqual({
        answers: [
          { id: 'service', selected: [], custom: 'billing' },
          { id: 'replicas', selected: [], custom: '3' },
          { id: 'window', selected: [], custom: '2026-05-04' },
        ],
      });
    });

    it('sends an empty optional field as a skip and keeps Shift+Enter a newline in a textarea', async () => {
      const page = await t.mount();
      const answer = t.ask([
        { id: 'title', question: 'Title of the change?', input: { kind: 'text' }, required: true },
        { id: 'why', question: 'Why is it needed?', input: { kind: 'textarea' } },
        { id: 'size', question: 'Estimated hours?', input: { kind: 'number', min: 0 } },
      ]);
      await waitForQuestion(page, 'Title of the change?');
      await page.getByRole('textbox', { name: 'Title of the change?' }).fill('Rotate keys');
      await page.getByRole('textbox', { name: 'Title of the change?' }).press('Enter');
      expect(await focused(page)).toBe('f1-value');
      await page.keyboard.type('They are old');
      await page.keyboard.press('Shift+Enter');
      await page.keyboard.type('and shared');
      await page.keyboard.press('Enter');
      expect(await focused(page)).toBe('f2-value');
      await page.getByRole('button', { name: 'Submit' }).click();
      expect(await answer).toEqual({
        answers: [
          { id: 'title', selected: [], custom: 'Rotate keys' },
          { id: 'why', selected: [], custom: 'They are old\nand shared' },
          { id: 'size', selected: [] },
        ],
      });
    });

    it('locks the whole form while sending, shows a refusal, and keeps every value for a second try', async () => {
      const page = await t.mount({ mode: 'client' });
      const answer = t.ask(threeFields);
      await waitForQuestion(page, 'Which service is affected?');
      await page.getByRole('textbox', { name: 'Which service is affected?' }).fill('search');
      await page.getByRole('spinbutton', { name: 'How many replicas should it run?' }).fill('2');
      await holdNextAnswerAsStale(page);
      await page.getByRole('button', { name: 'Submit' }).click();
      const form = page.locator('askseam-questions form');
      expect(await form.getAttribute('aria-busy')).toBe('true');
      expect(await page.getByRole('textbox', { name: 'Which service is affected?' }).isDisabled()).toBe(true);
      expect(await page.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(true);

      await releaseSends(page);
      await page.locator('askseam-questions .error[role="alert"]').waitFor();
      expect(await page.locator('askseam-questions .error').textContent()).toMatch(/^The host refused this answer: /);
      expect(await form.getAttribute('aria-busy')).toBe('false');
      expect(await page.getByRole('textbox', { name: 'Which service is affected?' }).inputValue()).toBe('search');
      expect(await page.getByRole('spinbutton', { name: 'How many replicas should it run?' }).inputValue()).toBe('2');

      await page.getByRole('button', { name: 'Submit' }).click();
      expect(await answer).toEqual({
        answers: [
          { id: 'service', selected: [], custom: 'search' },
          { id: 'replicas', selected: [], custom: '2' },
          { id: 'window', selected: [] },
        ],
      });
    });

    it('keeps a plain batch of option questions on the pager', async () => {
      const page = await t.mount();
      const answer = t.ask([
        { id: 'db', question: 'Which database?', options: [{ label: 'PostgreSQL' }, { label: 'SQLite' }] },
        { id: 'cache', question: 'Which cache?', options: [{ label: 'Redis' }, { label: 'None' }] },
      ]);
      await waitForQuestion(page, 'Which database?');
      expect(await page.locator('askseam-questions .pager-count').textContent()).toBe('1 / 2');
      expect(await page.getByRole('heading', { name: 'Which cache?' }).count()).toBe(0);
      expect(await page.locator('askseam-questions .field').count()).toBe(0);
      await page.getByRole('radio', { name: 'SQLite' }).check();
      await page.getByRole('button', { name: 'Next' }).click();
      await waitForQuestion(page, 'Which cache?');
      await page.getByRole('radio', { name: 'None' }).check();
      await page.getByRole('button', { name: 'Submit' }).click();
      expect(await answer).toEqual({
        answers: [
          { id: 'db', selected: ['SQLite'] },
          { id: 'cache', selected: ['None'] },
        ],
      });
    });
  });
});
