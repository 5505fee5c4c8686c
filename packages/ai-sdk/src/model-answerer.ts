import type { AskUserQuestionAnswer, AskUserQuestionItem } from '@askseam/user-questions';
import { generateText, jsonSchema, type LanguageModel } from 'ai';

/** What `modelAnswerer` takes. */
export interface ModelAnswererOptions {
  /** The agent's name: its answers are recorded as `agent:<name>`. */
  name: string;
  /** The AI SDK model that answers. */
  model: LanguageModel;
  /** Who the agent is and when it should answer rather than pass the question on (the system prompt). */
  instructions?: string;
}

/** What the host tells an agent answerer (structurally `AgentAnswerContext` of @askseam/host-ws). */
export interface ModelAnswerContext {
  /** askseam's problem text for the previous answer, on the one second try. */
  feedback?: string;
  signal?: AbortSignal;
}

/**
 * An agent answerer made from an AI SDK model, for `agentAnswerer()` of @askseam/host-ws:
 * `agentAnswerer(modelAnswerer({ name: 'supervisor', model }))`. The model sees the questions as
 * JSON and must call one of two tools: `answer` (an answer to every question) or `defer` (a person
 * should decide). On its second try it also reads why its first answer did not fit.
 */
export function modelAnswerer(options: ModelAnswererOptions): {
  name: string;
  answer(questions: AskUserQuestionItem[], context: ModelAnswerContext): Promise<AskUserQuestionAnswer | 'defer'>;
} {
  const { name, model, instructions } = options;
  return {
    name,
    async answer(questions, context) {
      const feedback = context.feedback === undefined ? '' : `\n\nYour previous answer did not fit: ${context.feedback}\nAnswer again, or defer.`;
      const result = await generateText({
        model,
        system: instructions ?? defaultInstructions,
        prompt: `Questions (JSON):\n${JSON.stringify(questions)}${feedback}`,
        tools: { answer: { description: 'Answer every question.', inputSchema: answerSchema }, defer: { description: 'Pass the questions on to a person.', inputSchema: deferSchema } },
        toolChoice: 'required',
        ...(context.signal === undefined ? {} : { abortSignal: context.signal }),
      });
      // No tool has an execute: the one call the model made is the decision.
      const call = result.toolCalls[0];
      if (call === undefined || call.toolName === 'defer') return 'defer';
      // Judged by the host like any person's answer; a misfit comes back once as `feedback`.
      return call.input as AskUserQuestionAnswer;
    },
  };
}

const defaultInstructions =
  'You answer questions another agent asked. Answer only when you are sure; otherwise call defer so a person decides. ' +
  'Pick option labels exactly as written; put your own words in "custom".';

const answerSchema = jsonSchema<AskUserQuestionAnswer>({
  type: 'object',
  properties: {
    answers: {
      type: 'array',
      items: {
        type: 'object',
        properties: { id: { type: 'string' }, selected: { type: 'array', items: { type: 'string' } }, custom: { type: 'string' } },
        required: ['id', 'selected'],
        additionalProperties: false,
      },
    },
  },
  required: ['answers'],
  additionalProperties: false,
});

const deferSchema = jsonSchema<{ reason?: string }>({ type: 'object', properties: { reason: { type: 'string' } }, additionalProperties: false });
