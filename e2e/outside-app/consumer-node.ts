// What a server-side app writes against the published packages. Type-checked in the outside app with
// skipLibCheck: false and a Node-only lib (no DOM), under moduleResolution node16 and bundler.
// Every public entry point is imported whole, so each one's declaration files are checked in full.
import * as busRedis from '@askseam/bus-redis';
import * as clarify from '@askseam/clarify';
import * as client from '@askseam/client';
import * as email from '@askseam/email';
import * as hostWs from '@askseam/host-ws';
import * as langchain from '@askseam/langchain';
import * as planMode from '@askseam/plan-mode';
import * as protocol from '@askseam/protocol';
import * as providerTerminal from '@askseam/provider-terminal';
import * as store from '@askseam/store';
import * as storeRedis from '@askseam/store-redis';
import * as storeRedisTesting from '@askseam/store-redis/testing';
import * as storeSqlite from '@askseam/store-sqlite';
import * as storeTesting from '@askseam/store-testing';
import * as text from '@askseam/text';
import * as toolAskUser from '@askseam/tool-ask-user';
import * as userQuestions from '@askseam/user-questions';
import * as userQuestionsTesting from '@askseam/user-questions/testing';
// The element's DOM-free half: a server serves the bundle and reads event details without the DOM lib.
import * as webServer from '@askseam/web/server';
import { createServer } from 'node:http';

export const everyEntryPoint = {
  busRedis,
  clarify,
  client,
  email,
  hostWs,
  langchain,
  planMode,
  protocol,
  providerTerminal,
  store,
  storeRedis,
  storeRedisTesting,
  storeSqlite,
  storeTesting,
  text,
  toolAskUser,
  userQuestions,
  userQuestionsTesting,
  webServer,
};
const bundleUrl: URL = webServer.browserBundleUrl();
const answeredDetail: webServer.AskseamAnsweredDetail = { rpcId: 'r', sessionId: 's', answer: { answers: [] } };

// The "use it in your app" flow, typed as an app would type it.
const agent: userQuestions.AgentRef = { id: 'support-bot' };
const seam = new userQuestions.UserQuestions({ agents: userQuestionsTesting.agentRegistry([agent]) });
const server = createServer();
const hostPromise: Promise<hostWs.WebSocketHost> = hostWs.createWebSocketHost({ userQuestions: seam, server, token: 't' });
const openAiTools: toolAskUser.OpenAIFunctionTool[] = [toolAskUser.toOpenAITool(), planMode.toOpenAIExitPlanModeTool()];
const anthropicTools: toolAskUser.AnthropicTool[] = [toolAskUser.toAnthropicTool()];
// LangChain: an askseam tool as a LangChain tool, typed against the app's own @langchain/core.
const langChainTool: langchain.AskseamLangChainTool = langchain.toLangChainTool(toolAskUser.askUserQuestionTool, { userQuestions: seam, agent });
const result: Promise<toolAskUser.AskToolResult> = toolAskUser.askUserQuestionTool.execute('{}', { userQuestions: seam, agent });
// No `ws` import here: the app has no @types/ws of its own, so host-ws's declarations must bring it.
const connection = client.connectQuestions({ url: 'ws://127.0.0.1:1/askseam', token: 't', reconnect: false });
const frame = protocol.parseServerFrame('{}');
// E-mail: a channel on the host, its SMTP listener and webhook, typed as an app types them.
const mailed: Promise<email.EmailChannel> = hostPromise.then((host) =>
  email.emailChannel({ host, transport: { sendMail: async () => undefined }, from: 'Agent <agent@example.com>', replyTo: 'reply@reply.example.com', secret: 'x'.repeat(32), to: () => undefined }),
);
const listening: Promise<email.SmtpListener> = mailed.then((channel) => email.listenSmtp(channel, { port: 0 }));
const inbound: Promise<email.EmailWebhookHandler> = mailed.then((channel) => email.emailWebhook(channel));
const rendered: string = text.renderText([{ id: 'plan', question: 'Which plan?', options: [{ label: 'Pro' }, { label: 'Free' }] }]);

// Stores: the in-memory one, SQLite (with the better-sqlite3 types it exposes), Redis and its bus.
const stores: store.QuestionStore[] = [
  new store.MemoryQuestionStore(),
  new storeSqlite.SqliteQuestionStore(':memory:'),
  new storeRedis.RedisQuestionStore(),
];
const bus: store.QuestionBus = new busRedis.RedisQuestionBus();
const code: Promise<store.QuestionStoreErrorCode | 'no error'> = storeTesting.questionStoreErrorCode(Promise.resolve());
const terminal: providerTerminal.TerminalProvider = providerTerminal.createTerminalProvider({ input: process.stdin, output: process.stdout });

export const used = { hostPromise, openAiTools, anthropicTools, result, connection, frame, rendered, stores, bus, code, terminal, clarify, bundleUrl, answeredDetail, langChainTool, listening, inbound };
