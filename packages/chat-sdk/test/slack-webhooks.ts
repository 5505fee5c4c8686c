// Webhook requests as Slack sends them: signed with the app's signing secret (v0, HMAC-SHA256 over
// "v0:<timestamp>:<body>", refused by the adapter outside a 300 s window), carrying interactive
// payloads (clicks, form submissions) or Events API callbacks (thread messages).
import { createHmac } from 'node:crypto';

export const signingSecret = 'askseam-signing-secret';
export const channelId = 'C0123TEAM';

export interface SignOptions {
  /** Seconds since the epoch; default now. */
  timestamp?: number;
  secret?: string;
}

export function signedRequest(body: string, contentType: string, options: SignOptions = {}): Request {
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const signature = `v0=${createHmac('sha256', options.secret ?? signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  return new Request('https://app.example.com/api/slack', {
    method: 'POST',
    headers: { 'content-type': contentType, 'x-slack-request-timestamp': timestamp, 'x-slack-signature': signature },
    body,
  });
}

export function interactive(payload: Record<string, unknown>, options?: SignOptions): Request {
  return signedRequest(new URLSearchParams({ payload: JSON.stringify(payload) }).toString(), 'application/x-www-form-urlencoded', options);
}

let triggers = 0;

/** A click on a control of the message `messageTs` (a button, a select), as a block_actions payload. */
export function click(user: string, messageTs: string, action: Record<string, unknown>, state: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'block_actions',
    team: { id: 'T0001' },
    user: { id: user, username: user.toLowerCase(), name: user.toLowerCase() },
    channel: { id: channelId, name: 'team' },
    container: { type: 'message', message_ts: messageTs, channel_id: channelId, is_ephemeral: false },
    message: { ts: messageTs, type: 'message', user: 'UBOT0001' },
    trigger_id: `trigger.${++triggers}`,
    actions: [{ block_id: 'askseam.controls', action_ts: String(Date.now() / 1000), ...action }],
    state: { values: state },
  };
}

/** A form submitted: `values` by the input's action id, laid out in the blocks the form was opened with. */
export function submitView(user: string, view: { id?: unknown; callback_id?: unknown; private_metadata?: unknown; blocks?: unknown }, values: Record<string, string>): Record<string, unknown> {
  const state: Record<string, Record<string, unknown>> = {};
  for (const block of (view.blocks ?? []) as { block_id?: string; element?: { action_id?: string; type?: string } }[]) {
    const actionId = block.element?.action_id;
    if (actionId === undefined || !(actionId in values)) continue;
    const value = values[actionId]!;
    state[block.block_id ?? actionId] = {
      [actionId]: block.element?.type === 'static_select' ? { type: 'static_select', selected_option: { value } } : { type: 'plain_text_input', value },
    };
  }
  return {
    type: 'view_submission',
    team: { id: 'T0001' },
    user: { id: user, username: user.toLowerCase(), name: user.toLowerCase() },
    view: { id: view.id ?? 'V1', callback_id: view.callback_id, private_metadata: view.private_metadata, state: { values: state } },
  };
}

let events = 0;

/** A message posted in the thread of `threadTs`, as an Events API callback. */
export function threadMessage(user: string, threadTs: string, text: string, options?: SignOptions): Request {
  const ts = `${Math.floor(Date.now() / 1000)}.${String(++events).padStart(6, '0')}`;
  const body = JSON.stringify({
    type: 'event_callback',
    team_id: 'T0001',
    api_app_id: 'A0001',
    event_id: `Ev${events}`,
    event_time: Math.floor(Date.now() / 1000),
    event: { type: 'message', channel: channelId, channel_type: 'channel', user, text, ts, thread_ts: threadTs, team: 'T0001' },
  });
  return signedRequest(body, 'application/json', options);
}
