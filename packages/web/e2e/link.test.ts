import type { AskUserQuestionItem } from '@askseam/user-questions';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowserTest, waitForQuestion } from './support/fixture.js';
import { transports } from './support/stage.js';

// A page opened from a one-question link (the URL a notification carries), in real Chromium: the
// page hands `?link=` to the element, which shows that question alone and says when it is over.

// Everything here is about the element, not the wire: it runs over both transports.
describe.each(transports)('over %s', (transport) => {
  const t = useBrowserTest(transport);

  const question = (id: string, text: string): AskUserQuestionItem => ({ id, question: text, options: [{ label: 'Yes' }, { label: 'No' }] });

  /** Open the link as a person would, and mount the element with the page's own `?link=`. */
  async function openLink(page: Page, link: string, hostUrl: string): Promise<void> {
    await page.goto(link);
    await page.waitForFunction(() => 'mountAskseam' in window && customElements.get('askseam-questions') !== undefined);
    await page.evaluate((url) => {
      const element = document.createElement('askseam-questions');
      element.setAttribute('url', url);
      element.setAttribute('link', new URLSearchParams(location.search).get('link') ?? '');
      document.querySelector('#app')!.append(element);
    }, hostUrl);
  }

  describe('a page opened from a one-question link', () => {
    it('shows only the link question, answers it, and says the link is settled afterwards and on reopening', async () => {
      const { stage, page } = t;
      const other = t.ask([question('other', 'Deploy the other service?')]);
      const mine = t.ask([question('mine', 'Rotate the API key?')]);
      await expect.poll(() => stage.host.pending().length).toBe(2);
      const mineId = stage.host.pending().find((pending) => pending.questions[0]?.id === 'mine')!.rpcId;
      const link = stage.host.linkFor(mineId);
      expect(link.startsWith(`${stage.origin}/?link=`)).toBe(true);

      await openLink(page, link, stage.url);
      await waitForQuestion(page, 'Rotate the API key?');
      expect(await page.getByText('Deploy the other service?').count()).toBe(0);
      expect(await page.locator('askseam-questions .waiting').textContent()).toBe('');

      await page.getByRole('radio', { name: 'Yes' }).check();
      await page.getByRole('button', { name: 'Submit' }).click();
      await expect(mine).resolves.toEqual({ answers: [{ id: 'mine', selected: ['Yes'] }] });
      const settledNote = page.locator('askseam-questions .status[data-status="link-settled"]');
      await settledNote.waitFor();
      expect(await settledNote.textContent()).toBe('This question has already been answered or dismissed; the link has nothing left to show.');
      expect(stage.host.pending().map((pending) => pending.questions[0]?.id)).toEqual(['other']);

      // Opened again later (say, from the same email): the host says the question is over.
      await openLink(page, link, stage.url);
      await page.locator('askseam-questions .status[data-status="link-settled"]').waitFor();
      expect(await page.getByRole('heading').count()).toBe(0);
      t.track(other);
    });
  });
});
