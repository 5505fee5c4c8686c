// The host's in-process channel port as the e-mail channel uses it (PORT-SPEC, @askseam/host-ws).
// TEMPORARY: these mirror the port's names until it lands; then they are imported from @askseam/host-ws.
import type { ReceiptFrame } from '@askseam/protocol';
import type { QuestionRecord } from '@askseam/store';
import type { AskUserQuestionAnswer, AskUserQuestionItem } from '@askseam/user-questions';

export interface AnsweredBy {
  principalId: string;
  via: string;
  user?: string;
  destination?: string;
}

export interface ChannelQuestion {
  rpcId: string;
  sessionId: string;
  askedBy: string;
  askedAt: string;
  questions: AskUserQuestionItem[];
  urgency?: 'low' | 'medium' | 'high';
}

export interface ChannelSettlement {
  rpcId: string;
  sessionId: string;
  outcome: 'answered' | 'cancelled' | 'aborted' | 'timed_out';
  answeredBy?: AnsweredBy;
  answer?: AskUserQuestionAnswer;
}

export interface HostChannelOptions {
  via: string;
  onQuestion(question: ChannelQuestion): void;
  onSettled(settlement: ChannelSettlement): void;
}

export interface HostChannel {
  respond(rpcId: string, result: unknown, person?: { user?: string; principalId?: string; destination?: string }): Promise<ReceiptFrame>;
  pending(): ChannelQuestion[];
  close(): void;
}

/** What the e-mail channel needs of a `WebSocketHost`. */
export interface ChannelHost {
  openChannel(options: HostChannelOptions): HostChannel;
  linkFor(rpcId: string): string;
  readonly store: { get(rpcId: string): Promise<QuestionRecord | undefined> };
}
