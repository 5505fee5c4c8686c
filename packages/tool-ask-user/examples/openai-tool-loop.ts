import { askUserQuestionTool, toOpenAITool } from '@askseam/tool-ask-user';
import { UserQuestions, type AgentRef, type UserQuestionProvider } from '@askseam/user-questions';

/** One tool call as OpenAI-style chat completions return it (arguments are JSON text). */
export interface ToolCall {
  id: string;
  function: { name: string; arguments: string };
}

export function createAssistant(provider: UserQuestionProvider) {
  // The seam knows which agents are live and which of them are roots (only roots reach the user).
  const agent: AgentRef = { id: 'assistant' };
  const userQuestions = new UserQuestions({
    agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] },
  });
  const dispose = userQuestions.registerProvider(provider);

  return {
    // Offer this in the request's `tools`; strict mode makes the model send null for unused fields.
    tools: [toOpenAITool({ strict: true })],

    // Run a call the model made and build the tool message that goes back to it. Errors are
    // results too (`Error: …` plus what to do), so the loop never has to catch anything.
    async handleToolCall(call: ToolCall, signal?: AbortSignal) {
      if (call.function.name !== askUserQuestionTool.name) return undefined;
      const result = await askUserQuestionTool.execute(call.function.arguments, { userQuestions, agent, signal });
      return { role: 'tool' as const, tool_call_id: call.id, content: result.text };
    },

    dispose,
  };
}

/** A provider for unattended runs: it takes each question's "(Recommended)" option, or skips it. */
export const takeRecommended: UserQuestionProvider = {
  async ask({ questions }) {
    return {
      answers: questions.map((question) => {
        const recommended = question.options?.find((option) => option.label.endsWith('(Recommended)'));
        return { id: question.id, selected: recommended ? [recommended.label] : [] };
      }),
    };
  },
};
