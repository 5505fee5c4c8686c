// Rendering on a server: renderToString with the real react-dom/server, in Node (no DOM).
import { connectQuestions } from '@askseam/client';
import { createWebSocketHost } from '@askseam/host-ws';
import { UserQuestions, type AgentRef } from '@askseam/user-questions';
import { createElement, type ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { QuestionsPanel } from '../examples/questions-panel.js';
import { AskseamQuestions } from './askseam-questions.js';
import { useQuestions } from './use-questions.js';
import type { QuestionClient } from '@askseam/client';

describe('rendering on a server', () => {
  it('renders <AskseamQuestions> as the bare tag with its attributes, and no client or callbacks', () => {
    const html = renderToString(
      createElement(AskseamQuestions, { url: '/askseam', token: 'secret', lang: 'zh', notify: true, sound: false, className: 'panel', onAnswered: () => undefined }),
    );
    expect(html).toBe('<askseam-questions url="/askseam" token="secret" lang="zh" class="panel" notify=""></askseam-questions>');
  });

  it('renders a client prop as nothing: it is set in the browser, from an effect', () => {
    const client = { pending: new Map(), status: 'open' } as unknown as QuestionClient;
    expect(renderToString(createElement(AskseamQuestions, { client, lang: 'en' }))).toBe('<askseam-questions lang="en"></askseam-questions>');
  });

  it('renders the example panel with nothing waiting and no connection', () => {
    const html = renderToString(createElement(QuestionsPanel, { url: 'ws://127.0.0.1:1/askseam', token: 'secret' }));
    expect(html).toContain('none<!-- -->: <!-- -->0<!-- --> waiting');
    expect(html).toContain('<askseam-questions lang="en" notify=""></askseam-questions>');
  });

  it('gives useQuestions the server snapshot even for a live client with a request waiting', async () => {
    const agent: AgentRef = { id: 'agent-ssr' };
    const userQuestions = new UserQuestions({ agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] } });
    const host = await createWebSocketHost({ userQuestions, token: 'ssr-token-0123456789' });
    const client = connectQuestions({ url: host.url, token: 'ssr-token-0123456789', WebSocket });
    const withdraw = new AbortController();
    try {
      const asked = new Promise<void>((resolve) => client.on('requested', () => resolve()));
      void userQuestions.ask({ questions: [{ id: 'q', question: 'Ready?', options: [{ label: 'Yes' }, { label: 'No' }] }], agent, signal: withdraw.signal }).catch(() => undefined);
      await asked;
      function Count(): ReactElement {
        const { connection, pending } = useQuestions(client);
        return createElement('p', null, `${connection} ${pending.length}`);
      }
      // What the browser's first (hydrating) render also reads, so the markup matches there.
      expect(renderToString(createElement(Count))).toBe('<p>none 0</p>');
    } finally {
      withdraw.abort();
      client.close();
      await host.close();
    }
  });
});
