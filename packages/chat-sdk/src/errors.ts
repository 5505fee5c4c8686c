import { AskseamError } from '@askseam/user-questions';

/** Every code a `ChatChannelError` can carry. */
export const chatChannelErrorCodes = [
  /** `chatChannel` was given options it cannot use (no bot, no host, a route that is not a function). */
  'INVALID_OPTIONS',
  /** `route` named a destination whose platform the bot has no adapter for. */
  'UNKNOWN_PLATFORM',
  /** The channel was used after `close()`. */
  'CHANNEL_CLOSED',
] as const;

export type ChatChannelErrorCode = (typeof chatChannelErrorCodes)[number];

const marker: unique symbol = Symbol.for('askseam.ChatChannelError') as never;

/** A chat channel that refused a call. */
export class ChatChannelError extends AskseamError<ChatChannelErrorCode> {
  readonly [marker] = true;
  override readonly name = 'ChatChannelError';
  static override isInstance(value: unknown): value is ChatChannelError {
    return AskseamError.hasMarker(value, marker);
  }
}
