import type { PendingQuestion } from '@askseam/client';
import { createChime, type Chime } from './attention-sound.js';
import { setTitleCount } from './attention-title.js';
import { h } from './dom.js';
import type { AskseamAttentionDetail } from './element-types.js';
import type { AskseamStrings } from './i18n.js';

// Getting a person's attention when a question arrives while the page is hidden (another tab,
// a minimised window): the tab title counts what waits, always; with the element's `notify`
// attribute a Web Notification says so, and with `sound` a short chime plays. Made when the
// element goes on the page and destroyed when it leaves, like the client binding.

/** What the element tells and gives its attention. */
export interface AttentionHost {
  strings(): AskseamStrings;
  /** The element's `lang` attribute, for the notification. */
  lang(): string;
  /** The host app's choices: the `notify` and `sound` attributes. */
  notify(): boolean;
  sound(): boolean;
  /** How many requests wait now. */
  count(): number;
  /** The person clicked the notification of `rpcId`: bring that request on screen and focus it. */
  focusRequest(rpcId: string): void;
  emit(detail: AskseamAttentionDetail): void;
}

export interface Attention {
  /** A request this element's client saw for the first time. */
  arrived(pending: PendingQuestion): void;
  /** A request left (answered, cancelled or gone). */
  resolved(rpcId: string): void;
  /** The attributes or the language changed: redraw the permission button. */
  refresh(): void;
  /** Stop listening, give the title back, close this element's notifications. */
  destroy(): void;
}

const isHidden = (): boolean => document.visibilityState === 'hidden';
const notificationsExist = (): boolean => typeof Notification !== 'undefined';

/** Start watching for attention; `buttonSlot` receives the "Notify me" button while it is needed. */
export function createAttention(host: AttentionHost, buttonSlot: HTMLElement): Attention {
  /** A request arrived during this hidden spell: the title counts until the page is seen again. */
  let calling = false;
  const shown = new Map<string, Notification>();
  let chime: Chime | undefined;

  const retitle = (): void => setTitleCount(attention, calling && isHidden() ? host.count() : 0, (count, title) => host.strings().attention.title(count, title));

  const closeNotifications = (): void => {
    for (const notification of shown.values()) notification.close();
    shown.clear();
  };

  const onVisibilityChange = (): void => {
    if (isHidden()) return;
    // Seen again: the person is looking, so the title and the notifications have done their job.
    calling = false;
    retitle();
    closeNotifications();
  };
  document.addEventListener('visibilitychange', onVisibilityChange);

  const notify = (pending: PendingQuestion): AskseamAttentionDetail['notification'] => {
    if (!host.notify()) return 'off';
    if (!notificationsExist() || Notification.permission !== 'granted') return 'not-permitted';
    let notification: Notification;
    try {
      notification = new Notification(host.strings().attention.notificationTitle(host.count()), {
        body: pending.questions[0]?.question ?? '',
        // One notification per request: a replay after a reconnect replaces, never piles up.
        tag: `askseam-${pending.rpcId}`,
        lang: host.lang(),
      });
    } catch {
      // Some browsers (Chrome on Android) allow notifications only through a service worker.
      return 'not-permitted';
    }
    notification.addEventListener('click', () => {
      window.focus();
      host.focusRequest(pending.rpcId);
      notification.close();
    });
    shown.get(pending.rpcId)?.close();
    shown.set(pending.rpcId, notification);
    return 'shown';
  };

  const drawButton = (): void => {
    const wanted = host.notify() && notificationsExist() && Notification.permission === 'default';
    if (!wanted) {
      buttonSlot.replaceChildren();
      return;
    }
    const label = host.strings().attention.enableNotifications;
    const current = buttonSlot.firstElementChild;
    if (current?.textContent === label) return;
    const button = h('button', { class: 'notify', attrs: { type: 'button', part: 'notify-button' } }, label);
    // The browser asks only from a person's click: never on load, never on arrival.
    button.addEventListener('click', () => {
      void Notification.requestPermission().then(drawButton, drawButton);
    });
    buttonSlot.replaceChildren(button);
  };

  const attention: Attention = {
    arrived(pending) {
      if (!isHidden()) return;
      calling = true;
      retitle();
      const notification = notify(pending);
      const count = host.count();
      if (!host.sound()) {
        host.emit({ rpcId: pending.rpcId, sessionId: pending.sessionId, count, notification, sound: 'off' });
        return;
      }
      chime ??= createChime();
      void chime.play().then((sound) => host.emit({ rpcId: pending.rpcId, sessionId: pending.sessionId, count, notification, sound }));
    },
    resolved(rpcId) {
      shown.get(rpcId)?.close();
      shown.delete(rpcId);
      retitle();
    },
    refresh() {
      drawButton();
      retitle();
    },
    destroy() {
      document.removeEventListener('visibilitychange', onVisibilityChange);
      calling = false;
      retitle();
      closeNotifications();
      chime?.close();
      chime = undefined;
      buttonSlot.replaceChildren();
    },
  };
  drawButton();
  return attention;
}
