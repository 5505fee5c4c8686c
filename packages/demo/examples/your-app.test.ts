import { connectQuestions, type PendingQuestion } from '@askseam/client';
import { buildBrowserBundle } from '../../web/scripts/bundle.mjs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startYourApp } from './your-app.js';

type App = Awaited<ReturnType<typeof startYourApp>>;
let app: App | undefined;

beforeAll(async () => {
  // A clean clone has no built bundle when the tests run; build it as `pnpm build` would.
  await buildBrowserBundle();
});

afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('the "use it in your app" example', () => {
  it('serves the page with the element and the bundle it loads', async () => {
    app = await startYourApp();
    const html = await (await fetch(app.pageUrl)).text();
    expect(html).toContain(`<askseam-questions url="/askseam" token="${app.token}"`);
    const script = await fetch(new URL('/askseam-questions.js', app.pageUrl));
    expect(script.status).toBe(200);
    expect((await script.text()).length).toBeGreaterThan(1000);
  });

  it('offers ask_user_question to the model and hands back the answer the person gave', async () => {
    app = await startYourApp();
    expect(app.tools[0]).toMatchObject({ type: 'function', function: { name: 'ask_user_question' } });

    const client = connectQuestions({ url: app.socketUrl, token: app.token, WebSocket, reconnect: false });
    try {
      const asked = new Promise<PendingQuestion>((resolve) => client.on('requested', resolve));
      const message = app.runToolCall({
        id: 'call_1',
        function: {
          name: 'ask_user_question',
          arguments: JSON.stringify({
            questions: [{ id: 'plan', question: 'Which plan?', options: [{ label: 'Pro (Recommended)' }, { label: 'Free' }] }],
          }),
        },
      });
      const question = await asked;
      await question.answer({ answers: [{ id: 'plan', selected: ['Pro (Recommended)'] }] });
      expect(await message).toEqual({
        role: 'tool',
        tool_call_id: 'call_1',
        content: '{"answers":[{"id":"plan","selected":["Pro (Recommended)"]}]}',
      });
    } finally {
      client.close();
    }
  });
});
