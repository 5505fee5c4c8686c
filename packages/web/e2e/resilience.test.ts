import { describe, expect, it } from 'vitest';
import { focused, holdNextAnswerAsStale, releaseSends, useBrowserTest, waitForQuestion } from './support/fixture.js';

// WebSocket only: these cut and refuse the socket itself (upgrades); e2e/sse.test.ts drops and resumes the event stream.
const t = useBrowserTest();

const twoQuestions = [
  { id: 'db', question: 'Which database?', options: [{ label: 'PostgreSQL' }, { label: 'SQLite' }] },
  { id: 'name', question: 'What should the service be called?' },
];

describe('<askseam-questions> under failure', () => {
  // How a real person meets a bad-response: the client checks every answer locally first, so
  // only a disagreement between this page and the host gets through, here a proxy that rewrites
  // the answer's session on the way (as a stale tab or an out-of-date client would). The page's
  // socket holds the frame first, so the locked state can be seen, then lets it go rewritten.
  it('shows an unusable url in its status line instead of throwing from a lifecycle callback', async () => {
    const page = await t.mount();
    const pageErrors: Error[] = [];
    page.on('pageerror', (error) => pageErrors.push(error));
    await page.evaluate(() => document.querySelector('askseam-questions')!.setAttribute('url', 'ftp://example.invalid/askseam'));
    const status = page.getByRole('status');
    await expect.poll(() => status.textContent()).toMatch(/^Cannot connect to the question host: /);
    expect(pageErrors).toEqual([]);
  });

  it('locks the controls while sending, shows a bad-response receipt, then accepts the corrected answer', async () => {
    const page = await t.mount({ mode: 'client' });
    const result = t.askTool([twoQuestions[0]]);
    await waitForQuestion(page, 'Which database?');
    await page.getByRole('radio', { name: 'SQLite' }).check();
    await holdNextAnswerAsStale(page);
    await page.getByRole('button', { name: 'Submit' }).click();

    const form = page.locator('askseam-questions form');
    expect(await form.getAttribute('aria-busy')).toBe('true');
    expect(await page.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(true);
    expect(await page.getByRole('radio', { name: 'SQLite' }).isDisabled()).toBe(true);
    expect(await page.getByText('Sending…').isVisible()).toBe(true);

    await releaseSends(page);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const rejection = t.stage.events.find((event) => event.type === 'response-rejected');
    expect(rejection).toMatchObject({ reason: 'bad-response' });
    expect(await alert.textContent()).toBe(`The host refused this answer: ${(rejection as { detail: string }).detail}`);
    expect(await form.getAttribute('aria-busy')).toBe('false');
    expect(await page.getByRole('radio', { name: 'SQLite' }).isChecked()).toBe(true);
    expect(await focused(page)).toBe('primary');
    expect(t.stage.host.pending()).toHaveLength(1);

    await page.getByRole('button', { name: 'Submit' }).click();
    expect(await result).toEqual({ isError: false, text: '{"answers":[{"id":"db","selected":["SQLite"]}]}' });
  });

  it('keeps the draft through a dropped connection and sends it once reconnected', async () => {
    // Short reconnect delays so the test does not wait out a long backoff.
    const page = await t.mount({ mode: 'client', reconnectDelayMs: 50, reconnectMaxDelayMs: 300 });
    const result = t.askTool(twoQuestions);
    await waitForQuestion(page, 'Which database?');
    await page.getByRole('radio', { name: 'PostgreSQL' }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    const name = page.getByRole('textbox', { name: 'Your answer' });
    await name.fill('ledger');

    t.stage.refuseConnections(true);
    t.stage.dropConnections();
    const status = page.getByRole('status');
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toBe('Reconnecting… your answers so far are kept.');
    expect(await name.inputValue()).toBe('ledger');

    t.stage.refuseConnections(false);
    await t.stage.waitForEvents((events) => events.some((event) => event.type === 'delivered' && event.replay));
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toBe('');
    expect(await name.inputValue()).toBe('ledger');
    await page.getByRole('button', { name: 'Back' }).click();
    expect(await page.getByRole('radio', { name: 'PostgreSQL' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Next' }).click();
    await name.press('Enter');
    expect(await result).toEqual({
      isError: false,
      text: '{"answers":[{"id":"db","selected":["PostgreSQL"]},{"id":"name","selected":[],"custom":"ledger"}]}',
    });
  });

  it('restores the draft, page included, when a new connection replays the same request', async () => {
    const page = await t.mount();
    const result = t.askTool(twoQuestions);
    await waitForQuestion(page, 'Which database?');
    await page.getByRole('radio', { name: 'SQLite' }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('textbox', { name: 'Your answer' }).fill('orders');

    // A wrong token: the element's new client is refused, so nothing is pending on screen.
    const element = page.locator('askseam-questions');
    await element.evaluate((node) => node.setAttribute('token', 'not-the-token'));
    await page.getByRole('heading', { name: 'What should the service be called?' }).waitFor({ state: 'detached' });
    // The right token again: another new client, which receives the same rpcId and gets the draft.
    await element.evaluate((node, token) => node.setAttribute('token', token), t.stage.token);
    await waitForQuestion(page, 'What should the service be called?');
    expect(await page.getByRole('textbox', { name: 'Your answer' }).inputValue()).toBe('orders');
    await page.getByRole('button', { name: 'Back' }).click();
    expect(await page.getByRole('radio', { name: 'SQLite' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Submit' }).click();
    expect(await result).toEqual({
      isError: false,
      text: '{"answers":[{"id":"db","selected":["SQLite"]},{"id":"name","selected":[],"custom":"orders"}]}',
    });
  });
});
