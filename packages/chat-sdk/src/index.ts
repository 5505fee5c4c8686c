// Everything a user may import from @askseam/chat-sdk, named one by one.
export { chatChannel } from './channel.js';
export type { ChatChannel, ChatChannelOptions, ChatUser } from './channel.js';
export { ChatChannelError, chatChannelErrorCodes } from './errors.js';
export type { ChatChannelErrorCode } from './errors.js';
export { slackLimits } from './slack-blocks.js';
export type {
  ChannelAnsweredBy,
  ChannelHost,
  ChannelPerson,
  ChannelQuestion,
  ChannelReceipt,
  ChannelSettlement,
  OpenChannelOptions,
  OpenedChannel,
} from './port.js';
