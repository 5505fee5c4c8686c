// Everything a user may import from @askseam/email, named one by one.
export { emailChannel } from './channel.js';
export type { EmailChannel } from './channel.js';
export type { EmailChannelOptions, InboundEnvelope, MailTransport } from './options.js';
export type { InboundResult, IgnoredReason, RejectedReason } from './inbound.js';
export { EmailChannelError, emailChannelErrorCodes } from './errors.js';
export type { EmailChannelErrorCode } from './errors.js';
export { replyTextOf, stripQuotes } from './reply-text.js';
export { MIN_SECRET_BYTES } from './address.js';
export { listenSmtp } from './smtp.js';
export type { SmtpListener, SmtpListenerOptions } from './smtp.js';
export { emailWebhook } from './webhook.js';
export type { EmailWebhookHandler, EmailWebhookOptions } from './webhook.js';
