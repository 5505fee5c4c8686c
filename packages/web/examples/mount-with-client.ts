import { connectQuestions } from '@askseam/client';
import { defineAskseamQuestions, type AskseamQuestionsElement } from '@askseam/web';

/**
 * Put the element into `container` with a client you made yourself (your own reconnect settings,
 * or one client shared with other parts of your app), and keep a count of waiting requests.
 */
export function mountQuestions(container: HTMLElement, url: string, token: string, onCount: (count: number) => void): AskseamQuestionsElement {
  defineAskseamQuestions();
  const element = document.createElement('askseam-questions');
  element.setAttribute('lang', navigator.language.startsWith('zh') ? 'zh' : 'en');
  element.client = connectQuestions({ url, token, reconnect: { initialDelayMs: 500, maxDelayMs: 5_000 } });
  element.addEventListener('askseam-pendingchange', (event) => onCount(event.detail.count));
  container.append(element);
  return element;
}
