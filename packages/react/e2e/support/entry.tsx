// The browser side of the React tests, bundled by esbuild (e2e/support/app.ts), in one of four
// modes the page's settings name:
// - `hydrate` / `render`: the example panel, hydrated over the server's markup or rendered fresh;
// - `hydrate-given` / `render-given`: a bare <AskseamQuestions> given a client made before React
//   runs and a callback that never changes, so nothing re-renders after the first render: what
//   reaches the element must come from that first (hydrating) render and the component's effects.
import { connectQuestions } from '@askseam/client';
import { AskseamQuestions } from '@askseam/react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { QuestionsPanel } from '../../examples/questions-panel.js';

export type AppMode = 'hydrate' | 'render' | 'hydrate-given' | 'render-given';

interface AppSettings {
  url: string;
  token: string;
  mode: AppMode;
}

const page = window as unknown as { __askseam: AppSettings; __definedBeforeReact: boolean; __answered: string[] };
const settings = page.__askseam;
page.__answered = [];
const container = document.getElementById('root')!;
const given = settings.mode.endsWith('-given');
const app = given ? (
  <AskseamQuestions
    client={connectQuestions({ url: settings.url, token: settings.token })}
    lang="en"
    onAnswered={(detail) => page.__answered.push(detail.rpcId)}
  />
) : (
  <QuestionsPanel url={settings.url} token={settings.token} />
);
// Recorded for the test: React must cope with the element not being defined when it first renders.
page.__definedBeforeReact = customElements.get('askseam-questions') !== undefined;
if (settings.mode.startsWith('hydrate')) {
  hydrateRoot(container, app, {
    onRecoverableError: (error) => console.error(`hydration: ${error instanceof Error ? error.message : String(error)}`),
  });
} else {
  createRoot(container).render(app);
}
