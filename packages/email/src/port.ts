// What the e-mail channel needs of the host: its in-process channel port (docs/channels.md),
// one-question links, and its store (to tell a late reply what became of its question).
import type { WebSocketHost } from '@askseam/host-ws';

export type { ChannelQuestion, ChannelSettlement, HostChannel } from '@askseam/host-ws';

/** What the e-mail channel uses of a `WebSocketHost` (`createWebSocketHost`). */
export type ChannelHost = Pick<WebSocketHost, 'openChannel' | 'linkFor' | 'store'>;
