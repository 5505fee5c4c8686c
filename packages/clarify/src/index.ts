// Everything a user may import from @askseam/clarify, named one by one.
export { askClarificationTool, requestHumanInputTool, askClarificationJsonSchema, requestHumanInputJsonSchema, toAnthropicClarifyTool, toOpenAIClarifyTool } from './tools.js';
export type { ClarifyTool } from './tools.js';
export { executeAskClarification, executeRequestHumanInput } from './execute.js';
export type { ClarifyToolContext } from './execute.js';
export { compileAskClarification, singleQuestionId } from './ask-clarification-compile.js';
export { compileRequestHumanInput, readRequestHumanInputArgs, requestHumanInputArgsSchema, requestHumanInputFieldDescriptions, humanInputFormats } from './request-human-input.js';
export type { HumanInputFormat, ReadRequestHumanInputResult, RequestHumanInputArgs } from './request-human-input.js';
export type { CompileOptions, CompileResult, CompiledClarification } from './compiled.js';
export { readAskClarificationArgs, topLevelChoiceId } from './ask-clarification-args.js';
export type { ClarifyDegradation, ClarifyDegradeReason, ReadAskClarification, ReadAskClarificationResult } from './ask-clarification-args.js';
export {
  askClarificationArgsSchema,
  askClarificationFieldDescriptions,
  clarificationFieldSchema,
  clarificationFieldTypes,
  clarificationTypes,
} from './ask-clarification-schema.js';
export type { AskClarificationArgs, ClarificationField, ClarificationFieldType, ClarificationType } from './ask-clarification-schema.js';
export { normalizeChoices } from './choices.js';
export { clarifyLimits, isReservedFieldName } from './limits.js';
export { humanInputFieldSchema, humanInputOptionSchema, humanInputRequestSchema } from './human-input.js';
export type { HumanInputField, HumanInputMode, HumanInputOption, HumanInputRequest } from './human-input.js';
export { answerFromValues, valueOf, valuesOf } from './values.js';
export type { AnswerFromValuesResult, ClarifyValue, ValueProblem } from './values.js';
export { clarificationResultText } from './result.js';
export {
  askClarificationToolDescription,
  askClarificationToolName,
  nonInteractiveText,
  requestHumanInputToolDescription,
  requestHumanInputToolName,
} from './description.js';
