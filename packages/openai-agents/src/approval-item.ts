import type { ApprovalTool } from '@askseam/user-questions';
import type { RunToolApprovalItem } from '@openai/agents';

/** The tool call an interruption asks about, as the approval card shows it. */
export function approvalToolOf(item: RunToolApprovalItem): ApprovalTool {
  const name = item.name ?? item.toolName ?? item.rawItem.type;
  const tool: ApprovalTool = { name, input: inputOf(item.arguments) };
  const description = descriptionOf(item, name);
  if (description !== undefined) tool.description = description;
  return tool;
}

/** The call's id, which the SDK keys its approvals by; hosted tool calls may only have an item id. */
export function callIdOf(item: RunToolApprovalItem): string | undefined {
  const raw = item.rawItem as { callId?: unknown; id?: unknown };
  if (typeof raw.callId === 'string') return raw.callId;
  return typeof raw.id === 'string' ? raw.id : undefined;
}

// The SDK keeps a function call's arguments as the model's JSON text. Shown parsed (the card folds
// and indents JSON); text that is not JSON is shown as the string it is, never dropped.
function inputOf(text: string | undefined): ApprovalTool['input'] {
  if (text === undefined) return null;
  try {
    return JSON.parse(text) as ApprovalTool['input'];
  } catch {
    return text;
  }
}

function descriptionOf(item: RunToolApprovalItem, name: string): string | undefined {
  const tools = (item.agent as { tools?: readonly { name?: unknown; description?: unknown }[] }).tools ?? [];
  const description = tools.find((each) => each.name === name)?.description;
  return typeof description === 'string' && description.trim() !== '' ? description : undefined;
}
