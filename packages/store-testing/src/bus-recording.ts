// What the bus contract suites listen with: a listener that keeps what it heard, and a message to send.
import type { QuestionBusListener, QuestionBusMessage, QuestionRecord } from '@askseam/store';
import { sampleQuestionRecord } from './sample.js';

/** What a test listener heard, in order. */
export interface RecordingListener extends QuestionBusListener {
  readonly messages: QuestionBusMessage[];
  resyncs: number;
}

export function recordingListener(): RecordingListener {
  const listener: RecordingListener = {
    messages: [],
    resyncs: 0,
    message(message) {
      listener.messages.push(message);
    },
    resync() {
      listener.resyncs += 1;
    },
  };
  return listener;
}

export function askedMessage(from: string, overrides: Partial<QuestionRecord> = {}): QuestionBusMessage {
  return { type: 'asked', from, record: { ...sampleQuestionRecord(), askedOn: from, ...overrides } };
}

