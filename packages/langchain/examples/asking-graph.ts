// A LangGraph agent loop whose ask_user_question pauses the thread: the model's call becomes an
// interrupt() saved by the checkpointer, and the person's answer (through langGraphInterrupts, or
// your own Command({ resume })) resumes it, in this process or after a restart.
import { createAskUserQuestionInterruptTool } from '@askseam/langchain';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { END, MessagesAnnotation, START, StateGraph, type BaseCheckpointSaver } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';

export function createAskingGraph(model: BaseChatModel, checkpointer: BaseCheckpointSaver) {
  // #region graph
  const tools = [createAskUserQuestionInterruptTool()];
  const modelWithTools = model.bindTools!(tools);
  return new StateGraph(MessagesAnnotation)
    .addNode('model', async (state) => ({ messages: [await modelWithTools.invoke(state.messages)] }))
    .addNode('tools', new ToolNode(tools))
    .addEdge(START, 'model')
    .addConditionalEdges('model', toolsCondition, ['tools', END])
    .addEdge('tools', 'model')
    .compile({ checkpointer });
  // #endregion graph
}
