import { describe, expect, it } from 'vitest';
import { cardOf, focused, useBrowserTest, waitForQuestion } from './support/fixture.js';
import { transports } from './support/stage.js';

// Everything here is about the element, not the wire: it runs over both transports.
describe.each(transports)('over %s', (transport) => {
  const t = useBrowserTest(transport);

  describe('<askseam-questions> by keyboard and in Chinese', () => {
    it('can be answered with the keyboard alone: Tab, number keys, Space and Enter', async () => {
      const page = await t.mount();
      const result = t.askTool([
        { id: 'size', question: 'How big is the first release?', options: [{ label: 'Small' }, { label: 'Medium' }, { label: 'Large' }] },
        { id: 'docs', question: 'Which docs ship with it?', multi_select: true, options: [{ label: 'README' }, { label: 'API reference' }] },
      ]);
      await waitForQuestion(page, 'How big is the first release?');
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('option-0');
      await page.keyboard.press('3');
      expect(await page.getByRole('radio', { name: 'Large' }).isChecked()).toBe(true);
      expect(await focused(page)).toBe('option-2');
      await page.keyboard.press('Enter');
      await waitForQuestion(page, 'Which docs ship with it?');
      expect(await focused(page)).toBe('heading');

      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('option-0');
      await page.keyboard.press('Space');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('custom');
      // Digits typed into the text box are text, not option shortcuts.
      await page.keyboard.type('2 pages of FAQ');
      expect(await page.getByRole('checkbox', { name: 'API reference' }).isChecked()).toBe(false);
      await page.keyboard.press('Enter');
      expect(await result).toEqual({
        isError: false,
        text: '{"answers":[{"id":"size","selected":["Large"]},{"id":"docs","selected":["README"],"custom":"2 pages of FAQ"}]}',
      });
    });

    it('ignores Enter while an IME composition is in progress', async () => {
      const page = await t.mount();
      const result = t.askTool([{ id: 'name', question: 'What is the project called?' }]);
      await waitForQuestion(page, 'What is the project called?');
      const custom = page.getByRole('textbox', { name: 'Your answer' });
      await custom.fill('接缝');
      // What a browser sends when Enter confirms a composition: isComposing, or keyCode 229.
      await custom.evaluate((textarea) => {
        textarea.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', isComposing: true, bubbles: true, composed: true, cancelable: true }));
        textarea.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', keyCode: 229, bubbles: true, composed: true, cancelable: true }));
      });
      // A submit would have locked the form at once.
      expect(await page.locator('askseam-questions form').getAttribute('aria-busy')).toBe('false');
      expect(await cardOf(page).count()).toBe(1);
      await custom.press('Enter');
      expect(await result).toEqual({ isError: false, text: '{"answers":[{"id":"name","selected":[],"custom":"接缝"}]}' });
    });

    it('speaks Chinese with lang="zh", strips a full-width (推荐) for display and keeps it in the answer', async () => {
      const page = await t.mount({ lang: 'zh' });
      const result = t.askTool([
        {
          id: 'db',
          header: '数据库',
          question: '服务应该使用哪个数据库？',
          options: [
            { label: 'PostgreSQL（推荐）', description: '成熟稳定，团队熟悉。' },
            { label: 'SQLite', description: '部署最简单，只有一个写入者。' },
          ],
        },
        { id: 'note', question: '还有什么要补充的吗？' },
      ]);
      await waitForQuestion(page, '服务应该使用哪个数据库？');
      expect(await page.getByText('推荐', { exact: true }).isVisible()).toBe(true);
      expect(await page.getByText('PostgreSQL', { exact: true }).isVisible()).toBe(true);
      expect(await page.getByText('选择一项').isVisible()).toBe(true);
      expect(await page.getByText('第 1 题，共 2 题').count()).toBe(0); // the pager's visible text is short…
      expect(await page.getByLabel('第 1 题，共 2 题').textContent()).toBe('1 / 2'); // …and its label is a sentence
      for (const name of ['忽略', '跳过此题', '下一题']) expect(await page.getByRole('button', { name }).isVisible()).toBe(true);

      await page.getByRole('radio', { name: /PostgreSQL/ }).check();
      await page.getByRole('button', { name: '下一题' }).click();
      await page.getByRole('textbox', { name: '你的回答' }).fill('需要支持全文搜索');
      // The language switches live, and the draft stays.
      await page.locator('askseam-questions').evaluate((element) => element.setAttribute('lang', 'en'));
      expect(await page.getByRole('button', { name: 'Submit' }).isVisible()).toBe(true);
      expect(await page.getByRole('textbox', { name: 'Your answer' }).inputValue()).toBe('需要支持全文搜索');
      await page.locator('askseam-questions').evaluate((element) => element.setAttribute('lang', 'zh'));
      await page.getByRole('button', { name: '提交' }).click();
      expect(await result).toEqual({
        isError: false,
        text: '{"answers":[{"id":"db","selected":["PostgreSQL（推荐）"]},{"id":"note","selected":[],"custom":"需要支持全文搜索"}]}',
      });
    });

    it('labels every control and marks the option group with a legend', async () => {
      const page = await t.mount();
      void t.askTool([{ id: 'db', question: 'Which database?', options: [{ label: 'PostgreSQL', description: 'The default.' }, { label: 'SQLite' }] }]);
      await waitForQuestion(page, 'Which database?');
      expect(await page.getByRole('group', { name: 'Choose one' }).isVisible()).toBe(true);
      expect(await page.getByRole('radio', { name: /PostgreSQL/ }).getAttribute('aria-describedby')).toBe('q-option-0-description');
      expect(await page.getByRole('textbox', { name: 'Or answer in your own words' }).isVisible()).toBe(true);
      expect(await page.getByRole('form', { name: 'Which database?' }).isVisible()).toBe(true);
      expect(await page.locator('askseam-questions [role="status"]').getAttribute('aria-live')).toBe('polite');
    });
  });
});
