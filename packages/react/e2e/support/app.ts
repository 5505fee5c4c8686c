import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createWebSocketHost, type WebSocketHost } from '@askseam/host-ws';
import { UserQuestions, type AgentRef } from '@askseam/user-questions';
import { build, type Plugin } from 'esbuild';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { QuestionsPanel } from '../../examples/questions-panel.js';
import { AskseamQuestions } from '../../src/index.js';
import type { AppMode } from './entry.js';

const modes: readonly AppMode[] = ['hydrate', 'render', 'hydrate-given', 'render-given'];

const packagesDir = fileURLToPath(new URL('../../../', import.meta.url));

// Sibling packages from their sources, as the web package's own bundle does: no stale dist/.
const workspaceSources: Plugin = {
  name: 'askseam-workspace-sources',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^@askseam\/[a-z-]+$/ }, (args) => ({ path: `${packagesDir}${args.path.slice('@askseam/'.length)}/src/index.ts` }));
  },
};

/** The browser app, built by esbuild as a real app would be (React's development build, for its hydration checks). */
export async function buildApp(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./entry.tsx', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"development"' },
    write: false,
    plugins: [workspaceSources],
    logLevel: 'silent',
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error('esbuild produced no output for the React test app.');
  return output.text;
}

export interface AppStage {
  readonly origin: string;
  readonly userQuestions: UserQuestions;
  readonly agent: AgentRef;
  readonly host: WebSocketHost;
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1:0: `/?mode=…` (see entry.tsx) is the page, with the server's
 * renderToString markup for the hydrate modes and an empty root otherwise; `/app.js` is the
 * bundle; the WebSocket host is on the same server.
 */
export async function startApp(bundle: string): Promise<AppStage> {
  const agent: AgentRef = { id: 'agent-react-e2e' };
  const userQuestions = new UserQuestions({ agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] } });
  const token = 'react-e2e-token';
  let wsUrl = '';
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/') {
      const mode = modes.find((each) => each === url.searchParams.get('mode')) ?? 'hydrate';
      // What the server renders for each mode; the browser's first render must match it.
      const markup =
        mode === 'hydrate'
          ? renderToString(createElement(QuestionsPanel, { url: wsUrl, token }))
          : mode === 'hydrate-given'
            ? renderToString(createElement(AskseamQuestions, { lang: 'en' }))
            : '';
      const settings = JSON.stringify({ url: wsUrl, token, mode });
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>askseam react</title>
<script>window.__askseam = ${settings};</script>
<script type="module" src="/app.js"></script></head>
<body><div id="root">${markup}</div></body></html>`);
    } else if (url.pathname === '/app.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(bundle);
    } else if (url.pathname === '/favicon.ico') {
      res.writeHead(204).end();
    } else {
      res.writeHead(404).end();
    }
  });
  const host = await createWebSocketHost({ userQuestions, server, token });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  wsUrl = `ws://127.0.0.1:${port}/askseam`;
  return {
    origin: `http://127.0.0.1:${port}`,
    userQuestions,
    agent,
    host,
    close: async () => {
      await host.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
