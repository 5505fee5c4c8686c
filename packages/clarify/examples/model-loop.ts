// Offering the clarification tools in a model loop: the definitions go to the model, and each
// call it makes is executed against the seam; the text goes back as the tool result.
import { askClarificationTool, requestClarificationTool, requestHumanInputTool } from '@askseam/clarify';
import { toOpenAITool } from '@askseam/tool-ask-user';
import type { AgentRef, UserQuestions } from '@askseam/user-questions';

const tools = [askClarificationTool, requestHumanInputTool, requestClarificationTool];

export const clarifyTools = tools.map((tool) => toOpenAITool(tool));

export async function runClarifyCall(
  call: { id: string; function: { name: string; arguments: string } },
  userQuestions: UserQuestions,
  agent: AgentRef,
): Promise<{ role: 'tool'; tool_call_id: string; content: string } | undefined> {
  const tool = tools.find((candidate) => candidate.name === call.function.name);
  if (tool === undefined) return undefined;
  // Never throws: a bad call or a dismissed question comes back as an error text with a hint.
  const result = await tool.execute(call.function.arguments, { userQuestions, agent });
  return { role: 'tool', tool_call_id: call.id, content: result.text };
}
