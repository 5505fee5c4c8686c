import { UserQuestionError } from './errors.js';
import type { AskUserQuestionAnswer, AskUserQuestionItem } from './schemas.js';
import { redactSensitiveAnswers } from './sensitive.js';
import {
  intentKindOf,
  telemetryNames as names,
  traceContextOf,
  type AskObservation,
  type AskSpanEventName,
  type AskTraceContext,
  type Attributes,
  type TelemetrySpan,
  type Tracer,
} from './telemetry.js';
import type { AskUserQuestionRequest } from './types.js';

// The API's enum values, written out: importing the enums would load @opentelemetry/api at run time.
const spanKindInternal = 0;
const statusError = 2;

/** How an ask ended, from the seam's side, by the error code it rejected with. */
const outcomeByCode: Partial<Record<string, string>> = {
  ASK_CANCELLED: 'cancelled',
  ASK_TIMEOUT: 'timed_out',
  ASK_ABORTED: 'aborted',
};

/**
 * The one span of one ask: started before the gates (a child of the caller's active span, which
 * the tracer reads from the app's context manager), ended when the ask settles. The provider adds
 * to it through the `AskObservation` face; nothing is added once it has ended.
 */
export class AskSpan implements AskObservation {
  readonly #span: TelemetrySpan;
  readonly #recordContent: boolean;
  #ended = false;
  #traceContext: AskTraceContext | undefined | null = null;

  constructor(tracer: Tracer, request: AskUserQuestionRequest, recordContent: boolean) {
    this.#recordContent = recordContent;
    const attributes: Attributes = {};
    // The request is unchecked here (the gates come next): read only what has the right shape.
    if (typeof request.agent?.id === 'string') {
      attributes[names.agentId] = request.agent.id;
      // A blocking ask's session is its agent's id (the host sets it again with the rpcId).
      attributes[names.sessionId] = request.agent.id;
    }
    if (Array.isArray(request.questions)) attributes[names.questionCount] = request.questions.length;
    if (typeof request.urgency === 'string') attributes[names.urgency] = request.urgency;
    this.#span = tracer.startSpan(names.askSpan, { kind: spanKindInternal, attributes });
  }

  get traceContext(): AskTraceContext | undefined {
    if (this.#traceContext === null) this.#traceContext = traceContextOf(this.#span);
    return this.#traceContext;
  }

  setAttributes(attributes: Attributes): void {
    if (!this.#ended) this.#span.setAttributes(attributes);
  }

  addEvent(name: AskSpanEventName, attributes?: Attributes): void {
    if (!this.#ended) this.#span.addEvent(name, attributes);
  }

  /** The gates passed: what was asked, as the seam checked it. */
  asked(questions: readonly AskUserQuestionItem[]): void {
    this.#span.setAttribute(names.intent, intentKindOf(questions));
    if (this.#recordContent) this.#span.setAttribute(names.questionTexts, questions.map((item) => item.question));
  }

  /**
   * Follow the ask to its end: `check` (gate 8) runs on the provider's answer, and the span ends
   * in that same reaction, as the caller's promise settles (one promise, not one more for the span).
   */
  follow(
    answer: Promise<AskUserQuestionAnswer>,
    questions: AskUserQuestionItem[],
    check: (questions: AskUserQuestionItem[], provided: AskUserQuestionAnswer) => AskUserQuestionAnswer,
  ): Promise<AskUserQuestionAnswer> {
    return answer.then(
      (provided) => {
        let value: AskUserQuestionAnswer;
        try {
          value = check(questions, provided);
        } catch (error) {
          this.fail(error, false);
          throw error;
        }
        if (this.#recordContent) this.#span.setAttribute(names.answer, JSON.stringify(redactSensitiveAnswers(questions, value)));
        this.#end('answered');
        return value;
      },
      (error: unknown) => {
        this.fail(error, false);
        throw error;
      },
    );
  }

  /** The ask rejected: refused at a gate (`atGate`), or ended without an answer. */
  fail(error: unknown, atGate: boolean): void {
    const code = UserQuestionError.isInstance(error) ? error.code : error instanceof Error ? error.name : 'unknown';
    const outcome = atGate ? 'refused' : (outcomeByCode[code] ?? 'failed');
    this.#span.setAttribute(names.errorType, code);
    // A person who dismisses the questions has answered, in a way: not an error of the operation.
    // The message only with recordContent: a refusal's text may quote a question or an answer.
    const message = this.#recordContent && error instanceof Error ? error.message : code;
    if (outcome !== 'cancelled') this.#span.setStatus({ code: statusError, message });
    this.#end(outcome);
  }

  #end(outcome: string): void {
    if (this.#ended) return;
    this.#span.setAttribute(names.outcome, outcome);
    this.#ended = true;
    this.#span.end();
  }
}
