import type { ChannelPerson, ChannelQuestion, ChannelSettlement, HostChannel, HostChannelOptions, WebSocketHost } from '@askseam/host-ws';

// The host's in-process channel port (`host.openChannel`, docs/channels.md "Writing a channel"), by
// the names this package uses: the types are the host's own, so the two cannot drift apart.

export type { ChannelPerson, ChannelQuestion, ChannelSettlement };

/** Who settled a question, as the host's record keeps it. */
export type ChannelAnsweredBy = NonNullable<ChannelSettlement['answeredBy']>;

/** The host's receipt for one response: accepted, or refused with askseam's own problem text. */
export type ChannelReceipt = Awaited<ReturnType<HostChannel['respond']>>;

export type OpenedChannel = HostChannel;

export type OpenChannelOptions = HostChannelOptions;

/** What `chatChannel` needs of the host: its channel port. `createWebSocketHost(…)` has it. */
export type ChannelHost = Pick<WebSocketHost, 'openChannel'>;
