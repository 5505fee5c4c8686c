// An agent whose risky tool waits for a person: humanInTheLoopMiddleware pauses the run, askseam
// shows each paused call as an approval card, and the person's decisions resume it.
import { hitlRequestOf, reviewActions, toLangChainTool } from '@askseam/langchain';
import { askUserQuestionTool } from '@askseam/tool-ask-user';
import type { AgentRef, UserQuestions } from '@askseam/user-questions';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { tool } from '@langchain/core/tools';
import { Command, MemorySaver } from '@langchain/langgraph';
import { createAgent, humanInTheLoopMiddleware } from 'langchain';
import { z } from 'zod';

export function createReviewedAgent(model: BaseChatModel, userQuestions: UserQuestions, agent: AgentRef, sendEmail: (args: { to: string; subject: string; urgent?: boolean | undefined }) => Promise<string>) {
  // #region wiring
  const tools = [
    toLangChainTool(askUserQuestionTool, { userQuestions, agent }),
    tool(sendEmail, {
      name: 'send_email',
      description: 'Sends an email.',
      schema: z.object({ to: z.string().describe('Recipient address'), subject: z.string(), urgent: z.boolean().optional() }),
    }),
  ];
  const reactAgent = createAgent({
    model,
    tools,
    middleware: [humanInTheLoopMiddleware({ interruptOn: { send_email: true } })],
    checkpointer: new MemorySaver(),
  });
  // #endregion wiring

  // #region run
  /** Runs one turn to the end, asking the person about every call the middleware pauses. */
  async function run(text: string, threadId: string) {
    const config = { configurable: { thread_id: threadId } };
    let state = await reactAgent.invoke({ messages: [{ role: 'user', content: text }] }, config);
    for (let paused = state.__interrupt__?.[0]; paused !== undefined; paused = state.__interrupt__?.[0]) {
      const request = hitlRequestOf(paused.value);
      if (request === undefined) throw new Error('This agent pauses only for reviews.');
      const response = await reviewActions(userQuestions, request, { agent, tools });
      state = await reactAgent.invoke(new Command({ resume: response }), config);
    }
    return state;
  }
  // #endregion run

  return { run };
}
