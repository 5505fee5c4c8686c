import { hasUserQuestionErrorCode, revealBidiControls, type AgentRef, type AskUserQuestionItem, type UserQuestions } from '@askseam/user-questions';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { contentFromAnswer, questionsForForm } from './elicitation-questions.js';
import { McpBridgeError } from './errors.js';

export interface HandleElicitationOptions {
  /** The seam the person is asked through (its provider: the WebSocket host, the terminal). */
  userQuestions: UserQuestions;
  /** Who is asking: the registry's own object (the WebSocket host routes by it). */
  agent?: AgentRef | undefined;
  /** Give up after this many milliseconds and answer `cancel`. Default: no timeout. */
  timeoutMs?: number | undefined;
  /** How often the person is asked again when their answer does not fit the form. Default 3. */
  maxAttempts?: number | undefined;
}

/** The option of a URL card that means "I will open it". */
export const openLinkLabel = 'Open it myself';
export const declineLinkLabel = 'Decline';

/**
 * Show every `elicitation/create` of the servers this client connects to as askseam questions.
 * Call it before `client.connect(…)`: the SDK adds a capability or a handler only before.
 */
export function handleElicitation(client: Client, options: HandleElicitationOptions): void {
  if (client.transport !== undefined) {
    throw new McpBridgeError('CLIENT_ALREADY_CONNECTED', 'handleElicitation must be called before client.connect(): the SDK declares capabilities only while connecting.');
  }
  const maxAttempts = options.maxAttempts ?? 3;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new McpBridgeError('INVALID_OPTIONS', `maxAttempts must be a whole number of at least 1, not ${String(maxAttempts)}.`);
  client.registerCapabilities({ elicitation: { form: {}, url: {} } });
  const server = (): string => serverWords(client.getServerVersion()?.name ?? 'An MCP server');
  /** The server as it introduced itself, for the sentence that says who asks (the spec: a client MUST make that clear). */
  const serverIntro = (): string => {
    const info = client.getServerVersion();
    if (info === undefined) return 'an MCP server that did not name itself';
    const title = info.title !== undefined && info.title !== info.name ? info.title : '';
    return `the MCP server ${serverWords(info.name)}${title === '' ? '' : ` (${serverWords(title)})`}, version ${serverWords(info.version)}`;
  };

  const ask = (questions: AskUserQuestionItem[], signal: AbortSignal) =>
    options.userQuestions.ask({
      questions,
      signal,
      ...(options.agent === undefined ? {} : { agent: options.agent }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });

  client.setRequestHandler(ElicitRequestSchema, async (request, extra): Promise<ElicitResult> => {
    const params = request.params;
    try {
      if (params.mode === 'url') {
        // Never opened for the person: the card names the host and the link, and they decide.
        const link = new URL(params.url);
        const answer = await ask(
          [
            {
              id: 'open-link',
              header: server(),
              question: `${server()} asks you to open a page on ${revealBidiControls(link.host)}.`,
              detail: `${params.message}\n\nThe link (open it yourself if you trust it):\n\n\`${revealBidiControls(params.url)}\``,
              options: [{ label: openLinkLabel }, { label: declineLinkLabel }],
              required: true,
            },
          ],
          extra.signal,
        );
        return answer.answers[0]?.selected[0] === openLinkLabel ? { action: 'accept' } : { action: 'decline' };
      }
      const form = questionsForForm(params.message, params.requestedSchema);
      if (!form.ok) return { action: 'decline', _meta: { 'askseam/reason': form.reason } };
      let questions = namingTheServer(form.questions, server(), serverIntro());
      for (let attempt = 1; ; attempt++) {
        const answer = await ask(questions, extra.signal);
        if (form.plans.length === 0) return { action: 'accept', content: {} };
        const content = contentFromAnswer(form.plans, answer);
        if (content.ok) return { action: 'accept', content: content.content };
        if (attempt >= maxAttempts) return { action: 'decline', _meta: { 'askseam/reason': content.problem } };
        questions = questions.map((question, index) =>
          index === 0 ? { ...question, detail: `**Your last answer could not be sent:** ${content.problem}\n\n${question.detail ?? ''}`.trim() } : question,
        );
      }
    } catch (error) {
      // Dismissed or timed out: nobody answered, which the spec calls cancel.
      if (hasUserQuestionErrorCode(error, 'ASK_CANCELLED') || hasUserQuestionErrorCode(error, 'ASK_TIMEOUT')) return { action: 'cancel' };
      throw error;
    }
  });
}

/**
 * The questions of a server's form, each headed by the server's name and the first one saying in
 * full who asks. A field that asks for a secret (the spec forbids that in a form) is marked
 * `sensitive` by `questionsForForm`: masked where it is typed, "[redacted]" in logs and events;
 * its question says so and that the value goes to the server.
 */
function namingTheServer(questions: AskUserQuestionItem[], name: string, intro: string): AskUserQuestionItem[] {
  const header = revealBidiControls(name);
  return questions.map((question, index) => {
    const notes = [index === 0 ? `Asked by ${escapeMarkdown(revealBidiControls(intro))}.` : undefined];
    if (question.sensitive === true) {
      notes.push(
        `**This field asks for a secret.** MCP servers must not ask for secrets in a form; ${escapeMarkdown(header)} did. ` +
          'What you type goes to that server (askseam keeps it out of its own logs). Dismiss these questions unless you trust it with this secret.',
      );
    }
    const detail = [...notes, question.detail].filter((part): part is string => part !== undefined && part !== '').join('\n\n');
    return { ...question, header, detail };
  });
}

/** The longest server name, title or version shown; a longer one is cut with an ellipsis. */
const serverWordsMax = 80;

/**
 * What a server says of itself, as one short line: line breaks, tabs and other controls become
 * spaces, so a name cannot start its own paragraph or heading ("**askseam verified this server**")
 * in the note that says who asks, and it is cut at `serverWordsMax` characters.
 */
function serverWords(text: string): string {
  const line = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').replace(/ {2,}/g, ' ').trim();
  return line.length > serverWordsMax ? `${line.slice(0, serverWordsMax - 1)}…` : line;
}

/**
 * Text shown as itself inside a line of Markdown: a server's name may not become a link, code,
 * emphasis or HTML. Only the inline markers are escaped; the text never starts a line.
 */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>~#!|&()]/g, '\\$&');
}
