import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { artifactsDir, readmeImagesDir, updateReadmeScreenshots } from './support/browser.js';
import { cardOf, countElementChecks, elementChecks, focused, useBrowserTest, waitForQuestion } from './support/fixture.js';
import { transports } from './support/stage.js';

// Everything here is about the element, not the wire: it runs over both transports.
describe.each(transports)('over %s', (transport) => {
  const t = useBrowserTest(transport);

  describe('<askseam-questions> composer', () => {
    it('answers a single-select question with the full original label', async () => {
      const page = await t.mount();
      const result = t.askTool([
        {
          id: 'db',
          header: 'Database',
          question: 'Which database should the service use?',
          options: [
            { label: 'PostgreSQL (Recommended)', description: 'Mature, and the team knows it.' },
            { label: 'SQLite', description: 'Simplest to run, single writer.' },
          ],
        },
      ]);
      await waitForQuestion(page, 'Which database should the service use?');
      // The display strips the suffix and shows a badge instead; nothing is pre-selected.
      expect(await page.getByText('PostgreSQL', { exact: true }).isVisible()).toBe(true);
      expect(await page.getByText('Recommended', { exact: true }).isVisible()).toBe(true);
      expect(await page.getByRole('radio', { checked: true }).count()).toBe(0);
      await page.getByRole('radio', { name: /PostgreSQL/ }).check();
      await page.getByRole('button', { name: 'Submit' }).click();
      expect(await result).toEqual({ isError: false, text: '{"answers":[{"id":"db","selected":["PostgreSQL (Recommended)"]}]}' });
      await expect.poll(() => cardOf(page).count(), { timeout: 10_000 }).toBe(0);
    });

    it('answers a multi-select question with custom text, Shift+Enter for a newline and Enter to submit', async () => {
      const page = await t.mount();
      const result = t.askTool([
        {
          id: 'targets',
          question: 'Which platforms must the first release support?',
          multi_select: true,
          options: [{ label: 'Linux' }, { label: 'macOS (Recommended)' }, { label: 'Windows' }],
        },
      ]);
      await waitForQuestion(page, 'Which platforms must the first release support?');
      await page.getByRole('checkbox', { name: 'Linux' }).check();
      await page.getByRole('checkbox', { name: 'Windows' }).check();
      const custom = page.getByRole('textbox', { name: 'Add something in your own words' });
      await custom.click();
      await page.keyboard.type('FreeBSD');
      await page.keyboard.press('Shift+Enter');
      await page.keyboard.type('if it is cheap');
      expect(await custom.inputValue()).toBe('FreeBSD\nif it is cheap');
      expect(await cardOf(page).count()).toBe(1);
      await page.keyboard.press('Enter');
      expect(await result).toEqual({
        isError: false,
        text: '{"answers":[{"id":"targets","selected":["Linux","Windows"],"custom":"FreeBSD\\nif it is cheap"}]}',
      });
    });

    it('lets typed text replace a single-select choice, and a choice clear typed text', async () => {
      const page = await t.mount();
      const result = t.askTool([{ id: 'db', question: 'Which database?', options: [{ label: 'PostgreSQL' }, { label: 'SQLite' }] }]);
      await waitForQuestion(page, 'Which database?');
      const sqlite = page.getByRole('radio', { name: 'SQLite' });
      const custom = page.getByRole('textbox', { name: 'Or answer in your own words' });
      await sqlite.check();
      await custom.fill('DuckDB');
      expect(await sqlite.isChecked()).toBe(false);
      await sqlite.check();
      expect(await custom.inputValue()).toBe('');
      await custom.fill('DuckDB');
      await page.getByRole('button', { name: 'Submit' }).click();
      expect(await result).toEqual({ isError: false, text: '{"answers":[{"id":"db","selected":[],"custom":"DuckDB"}]}' });
    });

    it('skips a question, moves on to the next one and answers the skipped one with an empty selection', async () => {
      const page = await t.mount();
      const result = t.askTool([
        { id: 'name', question: 'What should the CLI be called?' },
        { id: 'license', question: 'Which licence?', options: [{ label: 'MIT' }, { label: 'Apache-2.0' }] },
      ]);
      await waitForQuestion(page, 'What should the CLI be called?');
      expect(await page.getByText('1 / 2').isVisible()).toBe(true);
      await page.getByRole('button', { name: 'Skip this question' }).click();
      await waitForQuestion(page, 'Which licence?');
      expect(await focused(page)).toBe('heading');
      await page.getByRole('radio', { name: 'MIT' }).check();
      await page.getByRole('button', { name: 'Submit' }).click();
      expect(await result).toEqual({ isError: false, text: '{"answers":[{"id":"name","selected":[]},{"id":"license","selected":["MIT"]}]}' });
    });

    it('jumps to the first incomplete question on Submit, marks it invalid and sends nothing', async () => {
      const page = await t.mount();
      const result = t.askTool([
        { id: 'name', question: 'What should the CLI be called?' },
        { id: 'license', question: 'Which licence?', options: [{ label: 'MIT' }, { label: 'Apache-2.0' }] },
      ]);
      await waitForQuestion(page, 'What should the CLI be called?');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('radio', { name: 'Apache-2.0' }).check();
      await page.getByRole('button', { name: 'Submit' }).click();

      await waitForQuestion(page, 'What should the CLI be called?');
      const name = page.getByRole('textbox', { name: 'Your answer' });
      expect(await name.getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByRole('alert').textContent()).toBe('Answer this question or skip it before submitting.');
      expect(await focused(page)).toBe('heading');
      expect(t.stage.events.some((event) => event.type === 'answered' || event.type === 'response-rejected')).toBe(false);

      await name.fill('seam');
      expect(await name.getAttribute('aria-invalid')).toBeNull();
      await page.getByRole('button', { name: 'Next' }).click();
      // The choice on the second page survived the jump.
      expect(await page.getByRole('radio', { name: 'Apache-2.0' }).isChecked()).toBe(true);
      await page.getByRole('button', { name: 'Submit' }).click();
      expect(await result).toEqual({
        isError: false,
        text: '{"answers":[{"id":"name","selected":[],"custom":"seam"},{"id":"license","selected":["Apache-2.0"]}]}',
      });
    });

    it('dismisses the whole request, which the asking model sees as ASK_CANCELLED', async () => {
      const page = await t.mount();
      const result = t.askTool([
        { id: 'a', question: 'First question?' },
        { id: 'b', question: 'Second question?' },
      ]);
      await waitForQuestion(page, 'First question?');
      await page.getByRole('button', { name: 'Dismiss' }).click();
      const outcome = await result;
      expect(outcome).toMatchObject({ isError: true, code: 'ASK_CANCELLED' });
      await expect.poll(() => cardOf(page).count(), { timeout: 10_000 }).toBe(0);
    });

    it('queues several requests and shows them one at a time, oldest first', async () => {
      const page = await t.mount();
      const first = t.askTool([{ id: 'first', question: 'Asked first?', options: [{ label: 'Yes' }, { label: 'No' }] }]);
      await waitForQuestion(page, 'Asked first?');
      const second = t.askTool([{ id: 'second', question: 'Asked second?', options: [{ label: 'Yes' }, { label: 'No' }] }]);
      await page.getByText('1 more waiting').waitFor();
      expect(await page.getByRole('heading', { name: 'Asked first?' }).isVisible()).toBe(true);

      await page.getByRole('radio', { name: 'Yes' }).check();
      await page.getByRole('button', { name: 'Submit' }).click();
      expect(await first).toEqual({ isError: false, text: '{"answers":[{"id":"first","selected":["Yes"]}]}' });
      await waitForQuestion(page, 'Asked second?');
      expect(await page.getByText('1 more waiting').count()).toBe(0);
      // Whoever answered is taken to the next request.
      expect(await focused(page)).toBe('heading');
      await page.getByRole('radio', { name: 'No' }).check();
      await page.getByRole('button', { name: 'Submit' }).click();
      expect(await second).toEqual({ isError: false, text: '{"answers":[{"id":"second","selected":["No"]}]}' });
    });

    it('renders a header chip, the pager, Markdown detail and numbered options (screenshot)', async () => {
      const page = await t.mount();
      void t.ask([
        {
          id: 'storage',
          header: 'Storage',
          question: 'Where should uploaded files be kept?',
          detail: 'Uploads average **40 MB**; the service runs on `3` nodes behind a load balancer.',
          options: [
            { label: 'Object storage (Recommended)', description: 'Shared by every node, cheap at scale, needs a bucket.' },
            { label: 'Local disk', description: 'No new service, but each node sees only its own files.' },
            { label: 'Database blobs', description: 'One backup story; bloats the database.' },
          ],
        },
        { id: 'retention', question: 'How long should uploads be kept?', options: [{ label: '30 days' }, { label: 'Forever' }] },
      ]);
      await waitForQuestion(page, 'Where should uploaded files be kept?');
      expect(await page.getByText('Storage', { exact: true }).isVisible()).toBe(true);
      expect(await page.getByText('1 / 2').isVisible()).toBe(true);
      expect(await page.locator('askseam-questions .detail strong').textContent()).toBe('40 MB');
      expect(await page.locator('askseam-questions .option .number').allTextContents()).toEqual(['1', '2', '3']);
      await page.getByRole('radio', { name: /Object storage/ }).check();
      await page.getByRole('textbox').click();
      await page.getByRole('radio', { name: /Object storage/ }).focus();

      await cardOf(page).screenshot({ path: `${artifactsDir}composer.png` });
      if (updateReadmeScreenshots) {
        mkdirSync(readmeImagesDir, { recursive: true });
        // The card with a margin of page around it, so its border and shadow show.
        const box = (await cardOf(page).boundingBox())!;
        const margin = 24;
        await page.screenshot({
          path: `${readmeImagesDir}composer.png`,
          clip: { x: box.x - margin, y: box.y - margin, width: box.width + 2 * margin, height: box.height + 2 * margin },
        });
      }
    });

    it('checks a submitted answer once, in the client, and never again in the element', async () => {
      const page = await t.mount({ mode: 'client' });
      await countElementChecks(page);
      const result = t.askTool([{ id: 'db', question: 'Which database?', options: [{ label: 'PostgreSQL' }, { label: 'SQLite' }] }]);
      await waitForQuestion(page, 'Which database?');
      await page.getByRole('radio', { name: 'SQLite' }).check();
      await page.getByRole('button', { name: 'Submit' }).click();
      expect(await result).toEqual({ isError: false, text: '{"answers":[{"id":"db","selected":["SQLite"]}]}' });
      expect(await elementChecks(page)).toBe(0);
    });

    it("shows a misfit found by the client's check beside its question, and sends nothing", async () => {
      // The card's own checks follow the questions it shows; here it is shown the name question
      // without its limit, so the one check that finds the long name is the client's, as it sends.
      const page = await t.mount({ mode: 'client' });
      await countElementChecks(page, { hideMaxLengthOf: ['name'] });
      void t.ask([
        { id: 'name', question: 'What should the service be called?', input: { kind: 'text', maxLength: 5 } },
        { id: 'team', question: 'Which team owns it?' },
      ]);
      await waitForQuestion(page, 'What should the service be called?');
      await page.getByRole('textbox').fill('ledger-service');
      await page.getByRole('button', { name: 'Next' }).click();
      await waitForQuestion(page, 'Which team owns it?');
      await page.getByRole('textbox', { name: 'Your answer' }).fill('payments');
      await page.getByRole('button', { name: 'Submit' }).click();

      // Back on the question to blame, marked, with the client's reason; focus on its heading.
      await waitForQuestion(page, 'What should the service be called?');
      const alert = page.getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).toBe('This answer does not fit the question: Question "name" takes at most 5 characters; the answer has 14.');
      expect(await page.getByRole('textbox').getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByRole('textbox').inputValue()).toBe('ledger-service');
      expect(await focused(page)).toBe('heading');
      expect(await page.locator('askseam-questions form').getAttribute('aria-busy')).toBe('false');
      expect(t.stage.events.some((event) => event.type === 'response-rejected')).toBe(false);
      expect(t.stage.host.pending()).toHaveLength(1);
      expect(await elementChecks(page)).toBe(0);
    });
  });
});
