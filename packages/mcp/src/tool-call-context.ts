import { AsyncLocalStorage } from 'node:async_hooks';

/** The MCP request an askseam tool call is answering, for code that runs inside it. */
export interface McpToolCallContext {
  requestId: string | number;
}

// Why: an elicitation sent while a tool call waits must name that call (`relatedRequestId`), or
// Streamable HTTP has no stream to carry it on. The seam's request has no room for MCP details,
// so the tool handler leaves them here for the elicitation provider to find.
const toolCalls = new AsyncLocalStorage<McpToolCallContext>();

export function runInToolCall<T>(context: McpToolCallContext, run: () => T): T {
  return toolCalls.run(context, run);
}

/** The tool call this code runs inside, if any. */
export function currentToolCall(): McpToolCallContext | undefined {
  return toolCalls.getStore();
}
