import type { AskUserQuestionItem } from '@askseam/user-questions';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { AskseamAttentionDetail } from '../src/element-types.js';
import { cardOf, focused, useBrowserTest, waitForQuestion } from './support/fixture.js';
import { transports } from './support/stage.js';

// Attention in real Chromium. Headless Chromium keeps every page visible (minimising the window,
// a second tab in front, Target.activateTarget and Page.setWebLifecycleState all leave
// `document.visibilityState` at 'visible'), so the page is hidden by overriding
// `document.visibilityState` and dispatching a real `visibilitychange` event. Permissions are the
// browser's own: granted through the context, denied through CDP `Browser.setPermission`, and
// 'default' answered by headless Chromium itself when the page asks.

// Everything here is about the element, not the wire: it runs over both transports.
describe.each(transports)('over %s', (transport) => {
  const t = useBrowserTest(transport);

  const question = (id: string, text: string): AskUserQuestionItem => ({ id, question: text, options: [{ label: 'Yes' }, { label: 'No' }] });
  const pageTitle = 'askseam e2e';

  /** Hide or show the page as a tab switch would, and record every notification the page makes. */
  async function prepare(page: Page, attributes: { notify?: boolean; sound?: boolean } = {}): Promise<void> {
    await page.evaluate(({ notify, sound }) => {
      const win = window as unknown as Record<string, unknown>;
      let hidden = false;
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') });
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
      win['__setHidden'] = (value: boolean) => {
        hidden = value;
        document.dispatchEvent(new Event('visibilitychange'));
      };
      // The real Notification, watched: every one made, and whether Chromium showed it.
      const RealNotification = (win['__RealNotification'] ??= window.Notification) as typeof Notification;
      const made: { title: string; body: string; tag: string; shown: boolean; closed: boolean; notification: Notification }[] = [];
      win['__notifications'] = made;
      window.Notification = class extends RealNotification {
        constructor(title: string, options?: NotificationOptions) {
          super(title, options);
          const record = { title, body: options?.body ?? '', tag: options?.tag ?? '', shown: false, closed: false, notification: this };
          made.push(record);
          this.addEventListener('show', () => (record.shown = true));
          this.addEventListener('close', () => (record.closed = true));
        }
        override close(): void {
          record(this);
          super.close();
        }
      } as typeof Notification;
      const record = (notification: Notification) => {
        const entry = made.find((each) => each.notification === notification);
        if (entry) entry.closed = true;
      };
      const details: unknown[] = [];
      win['__attention'] = details;
      document.addEventListener('askseam-attention', (event) => details.push((event as CustomEvent).detail));
      const element = document.querySelector('askseam-questions')!;
      if (notify === true) element.setAttribute('notify', '');
      if (sound === true) element.setAttribute('sound', '');
    }, attributes);
  }

  const setHidden = (page: Page, hidden: boolean) => page.evaluate((value) => (window as unknown as { __setHidden(v: boolean): void }).__setHidden(value), hidden);
  const attentionDetails = (page: Page) => page.evaluate(() => (window as unknown as { __attention: AskseamAttentionDetail[] }).__attention);
  const notifications = (page: Page) =>
    page.evaluate(() =>
      (window as unknown as { __notifications: { title: string; body: string; tag: string; shown: boolean; closed: boolean }[] }).__notifications.map(
        ({ title, body, tag, shown, closed }) => ({ title, body, tag, shown, closed }),
      ),
    );
  const permission = (page: Page) => page.evaluate(() => Notification.permission);
  const waitForAttention = (page: Page, count: number) =>
    page.waitForFunction((n) => (window as unknown as { __attention: unknown[] }).__attention.length >= n, count);

  /** Block notifications for the page's origin; the setting lasts while the returned CDP session is attached. */
  async function denyNotifications(page: Page): Promise<{ detach(): Promise<void> }> {
    // A grant from an earlier test overrides a CDP setting: drop it first.
    await page.context().clearPermissions();
    const browser = page.context().browser()!;
    const session = await browser.newBrowserCDPSession();
    const { targetInfos } = await session.send('Target.getTargets');
    const target = targetInfos.find((each) => each.url.startsWith(t.stage.origin));
    await session.send('Browser.setPermission', {
      permission: { name: 'notifications' },
      setting: 'denied',
      origin: t.stage.origin,
      ...(target?.browserContextId === undefined ? {} : { browserContextId: target.browserContextId }),
    });
    return session;
  }

  describe('<askseam-questions> attention', () => {
    it('counts waiting requests in the tab title while the page is hidden and gives the title back when it is seen', async () => {
      const page = await t.mount();
      await page.context().clearPermissions();
      await prepare(page);
      void t.ask([question('seen', 'Asked while you look?')]);
      await waitForQuestion(page, 'Asked while you look?');
      expect(await page.title()).toBe(pageTitle);

      await setHidden(page, true);
      void t.ask([question('away', 'Asked while you are away?')]);
      await page.waitForFunction(() => document.title === '(2) askseam e2e');
      void t.ask([question('later', 'Asked later still?')]);
      await page.waitForFunction(() => document.title === '(3) askseam e2e');
      const details = await attentionDetails(page);
      expect(details.map(({ count, notification, sound }) => ({ count, notification, sound }))).toEqual([
        { count: 2, notification: 'off', sound: 'off' },
        { count: 3, notification: 'off', sound: 'off' },
      ]);

      await setHidden(page, false);
      expect(await page.title()).toBe(pageTitle);
    });

    it('follows the count down as requests are answered elsewhere while hidden', async () => {
      const page = await t.mount();
      await prepare(page);
      await setHidden(page, true);
      const controller = new AbortController();
      const first = t.track(t.stage.userQuestions.ask({ questions: [question('one', 'First while away?')], agent: t.stage.agent, signal: controller.signal }));
      void t.ask([question('two', 'Second while away?')]);
      await page.waitForFunction(() => document.title === '(2) askseam e2e');
      controller.abort();
      await first.catch(() => undefined);
      await page.waitForFunction(() => document.title === '(1) askseam e2e');
      await setHidden(page, false);
      expect(await page.title()).toBe(pageTitle);
    });

    it('shows a notification for a request arriving in a hidden page once allowed, and its click focuses that request', async () => {
      const page = await t.mount();
      await page.context().grantPermissions(['notifications'], { origin: t.stage.origin });
      await prepare(page, { notify: true });
      expect(await page.locator('askseam-questions [part="notify-button"]').count()).toBe(0);
      void t.ask([question('first', 'Deploy the first service?')]);
      await waitForQuestion(page, 'Deploy the first service?');
      expect(await notifications(page)).toEqual([]);

      await setHidden(page, true);
      void t.ask([question('second', 'Rotate the second key?')]);
      await waitForAttention(page, 1);
      expect((await attentionDetails(page))[0]).toMatchObject({ count: 2, notification: 'shown', sound: 'off' });
      await page.waitForFunction(() => (window as unknown as { __notifications: { shown: boolean }[] }).__notifications[0]?.shown === true);
      const [shown] = await notifications(page);
      expect(shown).toMatchObject({ title: '2 questions are waiting for you', body: 'Rotate the second key?', closed: false });
      expect(shown?.tag).toMatch(/^askseam-/);
      // The first request is still on screen: it is older.
      expect(await cardOf(page).getByRole('heading', { name: 'Deploy the first service?' }).count()).toBe(1);

      // Headless Chromium has no notification centre to click in: the click is the Notification's own event.
      await page.evaluate(() =>
        (window as unknown as { __notifications: { notification: Notification }[] }).__notifications[0]!.notification.dispatchEvent(new Event('click')),
      );
      await waitForQuestion(page, 'Rotate the second key?');
      expect(await focused(page)).toBe('heading');
      expect((await notifications(page))[0]?.closed).toBe(true);
      await setHidden(page, false);
    });

    it('closes the notification of a request answered elsewhere, and all of them once the page is seen', async () => {
      const page = await t.mount();
      await page.context().grantPermissions(['notifications'], { origin: t.stage.origin });
      await prepare(page, { notify: true });
      await setHidden(page, true);
      const controller = new AbortController();
      const first = t.track(t.stage.userQuestions.ask({ questions: [question('one', 'Withdrawn soon?')], agent: t.stage.agent, signal: controller.signal }));
      void t.ask([question('two', 'Still waiting?')]);
      await waitForAttention(page, 2);
      controller.abort();
      await first.catch(() => undefined);
      await page.waitForFunction(() => (window as unknown as { __notifications: { closed: boolean }[] }).__notifications[0]?.closed === true);
      expect((await notifications(page)).map((each) => each.closed)).toEqual([true, false]);
      await setHidden(page, false);
      expect((await notifications(page)).map((each) => each.closed)).toEqual([true, true]);
    });

    it('shows no notification and no button when the person blocked notifications, and still counts in the title', async () => {
      const page = await t.mount();
      const denial = await denyNotifications(page);
      expect(await permission(page)).toBe('denied');
      await prepare(page, { notify: true });
      expect(await page.locator('askseam-questions [part="notify-button"]').count()).toBe(0);
      await setHidden(page, true);
      void t.ask([question('blocked', 'Asked with notifications blocked?')]);
      await waitForAttention(page, 1);
      expect((await attentionDetails(page))[0]).toMatchObject({ count: 1, notification: 'not-permitted' });
      expect(await notifications(page)).toEqual([]);
      expect(await page.title()).toBe('(1) askseam e2e');
      await setHidden(page, false);
      await denial.detach();
    });

    it('asks for permission only from the person’s click on its button, never on arrival', async () => {
      const page = await t.mount();
      await page.context().clearPermissions();
      expect(await permission(page)).toBe('default');
      await prepare(page, { notify: true });
      const button = page.getByRole('button', { name: 'Notify me when a question arrives' });
      await button.waitFor();

      await setHidden(page, true);
      void t.ask([question('asked', 'Asked before anyone allowed notifications?')]);
      await waitForAttention(page, 1);
      expect((await attentionDetails(page))[0]).toMatchObject({ notification: 'not-permitted' });
      // Headless Chromium answers a permission request with 'denied' at once: still 'default' means nobody asked.
      expect(await permission(page)).toBe('default');
      await setHidden(page, false);

      await button.click();
      await page.waitForFunction(() => Notification.permission !== 'default');
      await button.waitFor({ state: 'detached' });
      await page.context().clearPermissions();
    });

    it('plays a chime for a hidden arrival with `sound`, once the person has interacted with the page', async () => {
      const page = await t.mount();
      await prepare(page, { sound: true });
      await page.mouse.click(5, 5); // a person's gesture: browsers let a page make sound only after one
      await setHidden(page, true);
      void t.ask([question('loud', 'Asked with sound on?')]);
      await waitForAttention(page, 1);
      expect((await attentionDetails(page))[0]).toMatchObject({ count: 1, notification: 'off', sound: 'played' });
      await setHidden(page, false);
    });

    it('leaves the title alone for requests arriving while the page is visible', async () => {
      const page = await t.mount();
      await prepare(page, { notify: true, sound: true });
      void t.ask([question('visible', 'Asked in plain sight?')]);
      await waitForQuestion(page, 'Asked in plain sight?');
      expect(await page.title()).toBe(pageTitle);
      expect(await attentionDetails(page)).toEqual([]);
    });
  });
});
