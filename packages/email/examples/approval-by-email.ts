// An app that asks for a deploy approval by e-mail and resumes when the on-call person replies,
// even after a restart: questions live in SQLite, the channel's only state is its secret.
// `startApprovalByEmail(config)` wires it; the test next to this file runs it against real SMTP.
import { approvalFromRecord, askApprovalDetached, createWebSocketHost, type WebSocketHost } from '@askseam/host-ws';
import { SqliteQuestionStore } from '@askseam/store-sqlite';
import { UserQuestions } from '@askseam/user-questions';
import nodemailer from 'nodemailer';
import type { ParsedMail } from 'mailparser';
import { emailChannel, emailWebhook, listenSmtp, type EmailWebhookHandler, type InboundEnvelope } from '@askseam/email';

export interface ApprovalByEmailConfig {
  /** The SQLite file that keeps pending questions across restarts. */
  database: string;
  /** Outgoing mail: your provider's SMTP relay. */
  smtp: { host: string; port: number; secure?: boolean; auth?: { user: string; pass: string } };
  /** Port of the inbound SMTP listener the reply domain's MX points at (25 in production). */
  inboundPort: number;
  /** At least 32 random bytes, the same on every start (e.g. from a secret manager). */
  secret: string;
  /** The on-call address that approves deploys. */
  onCall: string;
  /** Accept a reply only with a DKIM pass for its From domain, as recorded by your own MTA. */
  requireDkim?: boolean;
  /** Where decisions go once a person made them (the resumed agent run, in a real app). */
  onDecision(decision: { rpcId: string; approved: boolean; reason?: string | undefined; by?: string | undefined }): void;
}

export interface ApprovalByEmailApp {
  host: WebSocketHost;
  /** The webhook to mount for an inbound-mail service instead of (or beside) the SMTP listener. */
  webhook: EmailWebhookHandler;
  inboundPort: number;
  requestDeploy(service: string, version: string): Promise<{ rpcId: string }>;
  close(): Promise<void>;
}

export async function startApprovalByEmail(config: ApprovalByEmailConfig): Promise<ApprovalByEmailApp> {
  // #region wire
  const store = new SqliteQuestionStore(config.database);
  const host = await createWebSocketHost({
    userQuestions: new UserQuestions(),
    token: process.env.ASKSEAM_TOKEN ?? 'change-me',
    port: 0,
    store,
    // A reply after a restart lands here: read the decision and resume the agent's run.
    onResume: (record) => {
      const approval = approvalFromRecord(record);
      if (approval?.outcome !== 'answered') return;
      const { decision } = approval;
      config.onDecision({ rpcId: record.rpcId, approved: decision.approved, reason: decision.approved ? undefined : decision.reason, by: record.answeredBy?.user });
    },
  });
  const channel = emailChannel({
    host,
    transport: nodemailer.createTransport(config.smtp),
    from: 'Deploy bot <deploys@example.com>',
    replyTo: 'reply@reply.example.com',
    secret: config.secret,
    // Who is asked: here every question goes to on-call; `undefined` leaves a question to other channels.
    to: () => config.onCall,
    authenticated: config.requireDkim ? dkimPassed : undefined,
  });
  const listener = await listenSmtp(channel, { port: config.inboundPort });
  const webhook = emailWebhook(channel, { token: process.env.INBOUND_WEBHOOK_TOKEN ?? 'inbound-webhook-token-change-me' });
  // #endregion wire

  return {
    host,
    webhook,
    inboundPort: listener.port,
    requestDeploy: (service, version) =>
      askApprovalDetached(host, { sessionId: 'deploy-agent', tool: { name: 'deploy', input: { service, version }, description: 'Deploys a service to production.' }, reason: 'The release branch is green.' }),
    async close() {
      await listener.close();
      await channel.close();
      await host.close();
      await store.close();
    },
  };
}

// #region authenticated
/**
 * A reply counts only when the mail server that received it (yours, which must drop any
 * Authentication-Results header a sender wrote itself) recorded a DKIM pass for the From domain.
 */
export function dkimPassed(_envelope: InboundEnvelope, mail: ParsedMail): boolean {
  const domain = mail.from?.value[0]?.address?.split('@')[1]?.toLowerCase();
  if (domain === undefined) return false;
  const results = [mail.headers.get('authentication-results') ?? []].flat().map(String);
  return results.some((line) => line.split(';').some((part) => /^\s*dkim=pass\b/i.test(part) && part.toLowerCase().includes(`header.d=${domain}`)));
}
// #endregion authenticated
