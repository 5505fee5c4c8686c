// Everything a user may import from @askseam/clarify, named one by one.
export {
  askClarificationTool,
  requestClarificationTool,
  requestHumanInputTool,
  askClarificationJsonSchema,
  requestClarificationJsonSchema,
  requestHumanInputJsonSchema,
  toAnthropicClarifyTool,
  toOpenAIClarifyTool,
  toOpenAIResponsesClarifyTool,
} from './tools.js';
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
  requestClarificationToolDescription,
  requestClarificationToolName,
  requestHumanInputToolDescription,
  requestHumanInputToolName,
} from './description.js';
export { executeRequestClarification, nonInteractiveClarificationText, resumedActionText } from './request-clarification-execute.js';
export type { RequestClarificationContext } from './request-clarification-execute.js';
export { detachedClarificationAsk, prepareRequestClarification, preparePendingAction } from './request-clarification.js';
export type { PrepareClarificationOptions, PrepareClarificationResult, PreparedClarification } from './request-clarification.js';
export { readRequestClarificationArgs } from './request-clarification-args.js';
export type { ReadRequestClarificationResult } from './request-clarification-args.js';
export {
  missingFieldArgsSchema,
  missingFieldSchema,
  pendingActionSchema,
  requestClarificationArgsSchema,
  requestClarificationFieldDescriptions,
} from './request-clarification-schema.js';
export type { JsonValue, MissingField, MissingFieldArgs, PendingAction, RequestClarificationArgs } from './request-clarification-schema.js';
export { defaultPhrase } from './phrase.js';
export type { PhraseContext, PhraseMissingFields } from './phrase.js';
export { isPendingAction, resumePendingAction } from './pending-action.js';
export type { ResumedAction } from './pending-action.js';
export { clarificationQuestionId } from './clarification-questions.js';
export { isInternalName } from './internal-names.js';
export { ClarifyError, clarifyErrorCodes } from './errors.js';
export type { ClarifyErrorCode } from './errors.js';
