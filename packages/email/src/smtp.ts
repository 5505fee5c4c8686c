import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import type { EmailChannel } from './channel.js';
import { EmailChannelError } from './errors.js';

export interface SmtpListenerOptions {
  /** Interface to listen on. Default `127.0.0.1`; an MX facing the internet listens on `0.0.0.0` (port 25). */
  host?: string;
  /** Port; 0 picks a free one. Default 25. */
  port?: number;
  /** The largest message accepted, in bytes (announced with SIZE, refused with 552). Default 10 MiB. */
  maxMessageBytes?: number;
  /** More smtp-server options (TLS `key`/`cert` for STARTTLS, `banner`, `logger`, …). Handlers are the listener's own. */
  smtp?: Omit<SMTPServerOptions, 'onData' | 'onAuth' | 'onConnect' | 'onMailFrom' | 'onRcptTo' | 'size'>;
}

export interface SmtpListener {
  /** The port it listens on (the one picked when `port` was 0). */
  readonly port: number;
  /** Stop accepting connections and wait for the ones open to end. Idempotent. */
  close(): Promise<void>;
}

/** An SMTP error with the reply code smtp-server answers the DATA command with. */
function smtpError(code: number, message: string): Error & { responseCode: number } {
  return Object.assign(new Error(message), { responseCode: code });
}

/**
 * An inbound SMTP listener (smtp-server) that hands each message to `channel.receive`: the mail
 * server for the reply domain (its MX), or the target of a relay that forwards to it. A message for
 * no question of its sender is refused with 550 during the SMTP session, so nothing is ever
 * mailed back to a sender who may be forged; a failure on our side is 451, and the sender retries.
 */
export async function listenSmtp(channel: EmailChannel, options: SmtpListenerOptions = {}): Promise<SmtpListener> {
  const maxMessageBytes = options.maxMessageBytes ?? 10 * 1024 * 1024;
  const server = new SMTPServer({
    // Inbound mail arrives unauthenticated (as at any MX); STARTTLS stays if the app gives a key.
    disabledCommands: ['AUTH'],
    logger: false,
    ...options.smtp,
    authOptional: true,
    size: maxMessageBytes,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', (error) => callback(error));
      stream.on('end', () => {
        if ((stream as { sizeExceeded?: boolean }).sizeExceeded) return callback(smtpError(552, `Message exceeds the ${maxMessageBytes}-byte limit`));
        const mailFrom = session.envelope.mailFrom === false ? false : session.envelope.mailFrom.address;
        const rcptTo = session.envelope.rcptTo.map((recipient) => recipient.address);
        channel.receive(Buffer.concat(chunks), { mailFrom, rcptTo }).then(
          (result) => (result.status === 'rejected' ? callback(smtpError(550, result.message)) : callback()),
          (error: unknown) => {
            if (EmailChannelError.isInstance(error) && error.code === 'INVALID_MESSAGE') return callback(smtpError(550, error.message));
            callback(smtpError(451, 'Temporary failure; please retry later'));
          },
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 25, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    port,
    close() {
      closing ??= new Promise<void>((resolve) => server.close(() => resolve()));
      return closing;
    },
  };
}
