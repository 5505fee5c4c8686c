// docs/telemetry.md, run as written: an app that already set up the OpenTelemetry SDK hands its
// providers to askseam. Only the app imports @opentelemetry/api; askseam takes what it is given.
import { createWebSocketHost, type WebSocketHost } from '@askseam/host-ws';
import { UserQuestions, type AgentRegistry, type AskseamTelemetry } from '@askseam/user-questions';
import { metrics, trace } from '@opentelemetry/api';

export interface TracedApp {
  userQuestions: UserQuestions;
  host: WebSocketHost;
}

/** `providers` default to the ones the app registered globally (NodeSDK, NodeTracerProvider.register). */
export async function startTracedApp(agents: AgentRegistry, token: string, providers: Partial<AskseamTelemetry> = {}): Promise<TracedApp> {
  // #region telemetry
  const telemetry = {
    tracerProvider: providers.tracerProvider ?? trace.getTracerProvider(),
    meterProvider: providers.meterProvider ?? metrics.getMeterProvider(),
  };
  // The same providers for the seam (the ask span) and the host (its events, the metrics).
  const userQuestions = new UserQuestions({ agents, telemetry });
  const host = await createWebSocketHost({ userQuestions, token, telemetry });
  // #endregion telemetry
  return { userQuestions, host };
}
