// Use askseam in your app: the seam with your agents, the host on your HTTP server, the element in
// your page, and the ask_user_question tool in your model loop.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebSocketHost } from '@askseam/host-ws';
import { askUserQuestionTool, toOpenAITool } from '@askseam/tool-ask-user';
import { UserQuestions, type AgentRef } from '@askseam/user-questions';
import { browserBundleUrl } from '@askseam/web';

// #region start-your-app
export async function startYourApp() {
  // 1. The seam. It checks callers by identity against your live agents.
  const agent: AgentRef = { id: 'support-bot' };
  const userQuestions = new UserQuestions({
    agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] },
  });

  // 2. Your page, with the element; the host shares your server for its WebSocket (/askseam).
  const token = randomBytes(24).toString('base64url');
  const bundle = await readFile(browserBundleUrl());
  const page = `<!doctype html><meta charset="utf-8"><title>Questions</title>
<script type="module" src="/askseam-questions.js"></script>
<askseam-questions url="/askseam" token="${token}" lang="en"></askseam-questions>`;
  const server = createServer((req, res) => {
    if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    else if (req.url === '/askseam-questions.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    else res.writeHead(404).end();
  });
  const host = await createWebSocketHost({ userQuestions, server, token });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  // 3. Your model loop: offer the tool, run the calls the model makes, hand the text back.
  const tools = [toOpenAITool()];
  async function runToolCall(call: { id: string; function: { name: string; arguments: string } }) {
    const result = await askUserQuestionTool.execute(call.function.arguments, { userQuestions, agent });
    return { role: 'tool' as const, tool_call_id: call.id, content: result.text };
  }

  return {
    pageUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    socketUrl: host.url,
    token,
    tools,
    runToolCall,
    async close() {
      await host.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
// #endregion start-your-app
