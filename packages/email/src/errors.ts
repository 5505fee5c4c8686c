import { AskseamError } from '@askseam/user-questions';

/** Every code an `EmailChannelError` can carry. */
export const emailChannelErrorCodes = [
  /** `emailChannel` (or a listener, or the webhook handler) was given options it cannot use. */
  'INVALID_OPTIONS',
  /** The signing secret is shorter than 32 bytes: reply addresses signed with it could be guessed. */
  'WEAK_SECRET',
  /** `receive` was called after `close()`. */
  'CHANNEL_CLOSED',
  /** `receive` got something that is not one e-mail message (empty, too large, or not bytes). */
  'INVALID_MESSAGE',
] as const;

export type EmailChannelErrorCode = (typeof emailChannelErrorCodes)[number];

const marker: unique symbol = Symbol.for('askseam.EmailChannelError') as never;

/** An e-mail channel that cannot be set up as asked, or an inbound message it cannot read. */
export class EmailChannelError extends AskseamError<EmailChannelErrorCode> {
  readonly [marker] = true;
  override readonly name = 'EmailChannelError';

  /** True for an `EmailChannelError` from any copy of this package (where `instanceof` fails). */
  static override isInstance(value: unknown): value is EmailChannelError {
    return AskseamError.hasMarker(value, marker);
  }
}
