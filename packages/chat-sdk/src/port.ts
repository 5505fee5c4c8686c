import type { AskUserQuestionAnswer, AskUserQuestionItem } from '@askseam/user-questions';

// The host's in-process channel port (`host.openChannel`, @askseam/host-ws), written down here as
// the structural shape this package relies on, so the package needs the host only as a peer and
// any host with the same port (a future HTTP one) fits.

/** Who settled a question, as the host's record keeps it. */
export interface ChannelAnsweredBy {
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
  /** A quorum approval's approvals so far. */
  votes?: ChannelAnsweredBy[];
  /** With a host route: the reached destinations of this channel's `via` ('slack:C0123'); absent when unrouted. */
  destinations?: string[];
}

export interface ChannelSettlement {
  rpcId: string;
  sessionId: string;
  outcome: 'answered' | 'cancelled' | 'aborted' | 'timed_out';
  answeredBy?: ChannelAnsweredBy;
  answer?: AskUserQuestionAnswer;
}

/** The host's receipt for one response: accepted, or refused with askseam's own problem text. */
export type ChannelReceipt =
  | { type: 'receipt'; rpcId: string; accepted: true }
  | { type: 'receipt'; rpcId: string; accepted: false; reason: string; detail?: string };

export interface ChannelPerson {
  user?: string;
  principalId?: string;
  destination?: string;
}

export interface OpenedChannel {
  respond(rpcId: string, result: unknown, person?: ChannelPerson): Promise<ChannelReceipt>;
  pending(): ChannelQuestion[];
  close(): void;
}

export interface OpenChannelOptions {
  via: string;
  onQuestion(question: ChannelQuestion): void;
  onSettled(settlement: ChannelSettlement): void;
  /** A quorum approval counted one more approval (the question again, with `votes`). */
  onVotes?(question: ChannelQuestion): void;
  /** With a host route: a later tier named more destinations of this channel (`destinations` lists them all). */
  onEscalated?(question: ChannelQuestion): void;
}

/** What `chatChannel` needs of the host: its channel port. `createWebSocketHost(…)` has it. */
export interface ChannelHost {
  openChannel(options: OpenChannelOptions): OpenedChannel;
}
