// Everything a user may import from @askseam/host-ws, named one by one.
export { createWebSocketHost } from './host.js';
export type { HostConnectionInfo, HostPendingQuestion, WebSocketHost } from './host.js';
export type {
  HostAuthOptions,
  HostClusterOptions,
  HostConsoleOptions,
  HostDurabilityOptions,
  HostLimitOptions,
  HostListenOptions,
  HostObserverOptions,
  WebSocketHostOptions,
} from './options.js';
export type { Principal } from './principal.js';
export type { ChannelPerson, ChannelQuestion, ChannelSettlement, HostChannel, HostChannelOptions } from './channel-port.js';
export type { LinkForOptions } from './link.js';
export type { NotifyContext } from './notify.js';
export { agentAnswerer } from './route.js';
export type { AgentAnswerContext, AgentAnswerer, AgentAnswerResult, Answerer, Route, RouteContext, Tier } from './route.js';
export type { HostEvent, HostEventType, ResponseChannel } from './events.js';
export type { DetachedAskRequest } from './detached.js';
export { approvalFromRecord, askApprovalDetached } from './approval.js';
export type { DetachedApprovalRequest, DetachedAsker, ResumedApproval } from './approval.js';
export type { HttpQuestionView } from './http-api.js';
export type { QuarantinedQuestion } from './quarantine.js';
export { silentLogger } from './logger.js';
export type { HostLogger } from './logger.js';
export { WebSocketHostError, webSocketHostErrorCodes } from './errors.js';
export type { WebSocketHostErrorCode } from './errors.js';
export { closeCodes } from './connection.js';
export { toNodeListener } from './node-listener.js';
export type { FetchHandler } from './sse-transport.js';
export type { FetchHandlerOptions } from './sse-options.js';
