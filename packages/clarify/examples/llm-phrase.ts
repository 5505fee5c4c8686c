// The phrasing step in production (seed 001's second step): one small LLM call words the questions
// from the labels and descriptions. The prompt never contains an argument or tool name, so the
// model cannot repeat one; whatever it gets wrong falls back to the default wording anyway.
import type { PhraseMissingFields } from '@askseam/clarify';

/** `complete` is your model client: a prompt in, the model's text out. */
export function llmPhrase(complete: (prompt: string, signal?: AbortSignal) => Promise<string>): PhraseMissingFields {
  return async (missing, { goal, lang, signal }) => {
    const prompt = [
      `The user wants to: ${goal}`,
      'Still missing:',
      ...missing.map((field, index) => `${index + 1}. ${field.label}: ${field.description}${field.options.length > 0 ? ` (choices: ${field.options.join(', ')})` : ''}`),
      '',
      `Write one short, friendly question per item, in ${lang === 'zh' ? 'Chinese' : 'English'}, as a JSON array of strings in the same order.`,
      'Do not mention field names, tools, functions or schemas. Output only the JSON array.',
    ].join('\n');
    const questions: unknown = JSON.parse(await complete(prompt, signal));
    if (!Array.isArray(questions)) throw new Error('the model did not answer with a list');
    // The ids are replaced by the field's own; only the words are used.
    return missing.map((_field, index) => ({ id: String(index), question: String(questions[index] ?? '') }));
  };
}
