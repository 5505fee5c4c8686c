// A client on Node 20 over HTTP + Server-Sent Events: the URL's http(s):// scheme chooses SSE, and
// Node 20 has no global EventSource, so the `eventsource` package's (4.x) is passed in.
import { connectQuestions, type QuestionClient } from '@askseam/client';
import { EventSource } from 'eventsource'; // Node 20 only: browsers and Node 22+ have their own

/** `url` is where the SSE handler is mounted, e.g. `https://app.example/askseam`. */
export function connectOverSse(url: string, token: string): QuestionClient {
  return connectQuestions({ url, token, EventSource });
}
