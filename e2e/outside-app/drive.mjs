// Runs the README's "use it in your app" (your-app.mjs, compiled from packages/demo/examples/your-app.ts)
// from the installed tarballs, then answers one question over a real WebSocket with @askseam/client.
// Prints one JSON line with what the page served and what the model got back.
import { connectQuestions } from '@askseam/client';
import { WebSocket } from 'ws';
import { startYourApp } from './your-app.mjs';

const app = await startYourApp();
const client = connectQuestions({ url: app.socketUrl, token: app.token, WebSocket, reconnect: false });
try {
  const page = await (await fetch(app.pageUrl)).text();
  const bundle = await fetch(new URL('/askseam-questions.js', app.pageUrl));
  const bundleBytes = (await bundle.arrayBuffer()).byteLength;

  const asked = new Promise((resolve) => client.on('requested', resolve));
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
  console.log(JSON.stringify({ page, bundleStatus: bundle.status, bundleBytes, tools: app.tools, message: await message }));
} finally {
  client.close();
  await app.close();
}
