import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { cardOf, useBrowserTest, waitForQuestion } from './support/fixture.js';
import { transports } from './support/stage.js';

// Everything here is about the element, not the wire: it runs over both transports.
describe.each(transports)('over %s', (transport) => {
  const t = useBrowserTest(transport);

  // 203.0.113.0/24 is TEST-NET-3: nothing answers there, and no request to it may even start.
  const remote = 'http://203.0.113.7';

  const hostileDetail = `# Heading <script>window.__xss = 'heading'</script>

  <script>window.__xss = 'script'</script>
  <img src="${remote}/img.png" onerror="window.__xss = 'img'">
  <img src=x onerror="window.__xss = 'relative-img'">
  ![remote image](${remote}/markdown.png)
  ![protocol-relative image](//203.0.113.7/pr.png)
  <iframe src="${remote}/frame"></iframe>
  <object data="${remote}/object"></object>
  <embed src="${remote}/embed">
  <link rel="stylesheet" href="${remote}/style.css">
  <style>@import url('${remote}/import.css'); body { background: url(${remote}/bg.png) }</style>
  <form action="${remote}/steal"><input name="q"><button>Go</button></form>
  <svg><image href="${remote}/svg.png"/><script>window.__xss = 'svg'</script></svg>
  <a href="javascript:window.__xss='html-link'">html link</a>
  <div onmouseover="window.__xss = 'hover'">hover me</div>

  [markdown javascript link](javascript:window.__xss='md-link')

  [data link](data:text/html,<script>window.__xss='data'</script>)

  [protocol-relative link](//203.0.113.7/path)

  [documentation](https://example.com/docs)
  `;

  const hostileLabel = `<img src="${remote}/label.png" onerror="window.__xss = 'label'"> Use the fast path (Recommended)`;

  /** Wait until every request the page started so far has been reported: CDP reports requests in order. */
  async function requestsSettled(page: Page, requests: readonly string[]): Promise<void> {
    const marker = `/barrier-${Math.random().toString(36).slice(2)}`;
    await page.evaluate((path) => fetch(path).catch(() => undefined), marker);
    await expect.poll(() => requests.some((url) => url.endsWith(marker)), { timeout: 10_000 }).toBe(true);
  }

  describe('<askseam-questions> with hostile model text', () => {
    it('renders script, event handlers, remote content and dangerous links in detail inert', async () => {
      const page = await t.mount();
      void t.ask([{ id: 'x', question: 'Review this?', detail: hostileDetail, options: [{ label: 'Yes' }, { label: 'No' }] }]);
      await waitForQuestion(page, 'Review this?');
      const detail = page.locator('askseam-questions .detail');

      // Raw HTML is shown as the text it is.
      expect(await detail.textContent()).toContain(`<script>window.__xss = 'script'</script>`);
      // No element that can run script, load anything or submit anything exists.
      expect(await detail.locator('script, img, iframe, object, embed, link, style, form, input, button, svg, image').count()).toBe(0);
      const handlerAttributes = await cardOf(page).evaluate((card) =>
        [card, ...card.querySelectorAll('*')].flatMap((node) => [...node.attributes].map((attribute) => attribute.name)).filter((name) => name.startsWith('on')),
      );
      expect(handlerAttributes).toEqual([]);

      // Only the absolute https link keeps its target, and it opens apart from the page.
      const links = await detail.locator('a').evaluateAll((anchors) =>
        anchors.map((anchor) => ({ text: anchor.textContent, href: anchor.getAttribute('href'), target: anchor.getAttribute('target'), rel: anchor.getAttribute('rel') })),
      );
      expect(links).toEqual([
        { text: 'markdown javascript link', href: null, target: null, rel: null },
        { text: 'data link', href: null, target: null, rel: null },
        { text: 'protocol-relative link', href: null, target: null, rel: null },
        { text: 'documentation', href: 'https://example.com/docs', target: '_blank', rel: 'noopener noreferrer nofollow' },
      ]);

      await detail.getByText('markdown javascript link').click();
      await detail.getByText('hover me').hover();
      await detail.getByText('html link').click();
      await requestsSettled(page, t.requests);
      expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
      expect(t.requests.filter((url) => !url.startsWith(`${t.stage.origin}/`))).toEqual([]);
      expect(t.pageErrors).toEqual([]);
    });

    it('shows markup in a header, question, label and description as text and answers with the full label', async () => {
      const page = await t.mount();
      const result = t.askTool([
        {
          id: 'path',
          header: `<b onclick="window.__xss = 'header'">chip</b>`,
          question: `Which path? <img src=x onerror="window.__xss = 'question'">`,
          options: [{ label: hostileLabel, description: `<script>window.__xss = 'description'</script>` }, { label: 'The slow path' }],
        },
      ]);
      await waitForQuestion(page, /Which path\?/);
      const card = cardOf(page);
      expect(await card.locator('img, script, b').count()).toBe(0);
      expect(await card.locator('.option .label').first().textContent()).toBe(`<img src="${remote}/label.png" onerror="window.__xss = 'label'"> Use the fast path`);
      expect(await card.locator('.option .description').first().textContent()).toBe(`<script>window.__xss = 'description'</script>`);
      await card.locator('.chip').click();

      await page.getByRole('radio', { name: /fast path/ }).check();
      await page.getByRole('button', { name: 'Submit' }).click();
      expect(await result).toEqual({ isError: false, text: JSON.stringify({ answers: [{ id: 'path', selected: [hostileLabel] }] }) });
      await requestsSettled(page, t.requests);
      expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
      expect(t.requests.filter((url) => !url.startsWith(`${t.stage.origin}/`))).toEqual([]);
    });
  });
});
