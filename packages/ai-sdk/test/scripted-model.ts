// The AI SDK's own mock model (ai/test), scripted: each step either calls one tool or says text.
// The same script serves doGenerate (generateText, agent.generate) and doStream (streamText).
import { MockLanguageModelV4, convertArrayToReadableStream } from 'ai/test';

// The provider types, read off the mock model (they live in @ai-sdk/provider, a dependency of `ai`).
type LanguageModelV4GenerateResult = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;
type LanguageModelV4Content = LanguageModelV4GenerateResult['content'][number];
type LanguageModelV4StreamPart = Awaited<ReturnType<MockLanguageModelV4['doStream']>>['stream'] extends ReadableStream<infer Part> ? Part : never;

export type ScriptStep = { toolCall: { name: string; input: unknown; id?: string } } | { text: string };

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function contentOf(step: ScriptStep, index: number): LanguageModelV4Content {
  if ('text' in step) return { type: 'text', text: step.text };
  const { name, input, id } = step.toolCall;
  // A model sends its arguments as JSON text; a string here is sent as it is (even broken JSON).
  return { type: 'tool-call', toolCallId: id ?? `call-${index}`, toolName: name, input: typeof input === 'string' ? input : JSON.stringify(input) };
}

function finishOf(step: ScriptStep) {
  return { unified: 'toolCall' in step ? ('tool-calls' as const) : ('stop' as const), raw: undefined };
}

export function scriptedModel(script: readonly ScriptStep[]): MockLanguageModelV4 {
  let generated = 0;
  let streamed = 0;
  const stepAt = (index: number): ScriptStep => {
    const step = script[index];
    if (step === undefined) throw new Error(`The script has ${script.length} steps; the model was called a ${index + 1}th time.`);
    return step;
  };
  return new MockLanguageModelV4({
    doGenerate: async (): Promise<LanguageModelV4GenerateResult> => {
      const index = generated++;
      const step = stepAt(index);
      return { content: [contentOf(step, index)], finishReason: finishOf(step), usage, warnings: [] };
    },
    doStream: async () => {
      const index = streamed++;
      const step = stepAt(index);
      const content = contentOf(step, index);
      const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      if (content.type === 'text') parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: content.text }, { type: 'text-end', id: 't' });
      else parts.push(content as LanguageModelV4StreamPart);
      parts.push({ type: 'finish', finishReason: finishOf(step), usage });
      return { stream: convertArrayToReadableStream(parts) };
    },
  });
}

/** The prompt of the model's call number `index` (0-based), whichever of doGenerate / doStream ran. */
export function promptOfCall(model: MockLanguageModelV4, index: number) {
  const call = model.doGenerateCalls[index] ?? model.doStreamCalls[index];
  if (call === undefined) throw new Error(`The model was not called ${index + 1} times.`);
  return call.prompt;
}

/** The tool result parts the model was sent in its call number `index`. */
export function toolResultsSeen(model: MockLanguageModelV4, index: number) {
  return promptOfCall(model, index).flatMap((message) => (message.role === 'tool' ? message.content : []));
}
