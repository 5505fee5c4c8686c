// A local Slack Web API for the chat bench: answers the calls the Slack adapter makes while a
// question is posted, clicked and edited. Bench only; the tests' recorder also checks Block Kit.
import { createServer } from 'node:http';
import { createHmac } from 'node:crypto';

export const slackToken = 'xoxb-bench';
export const slackSecret = 'bench-signing-secret';

export async function startSlackApi() {
  let ts = 1_700_000_000;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const method = (req.url ?? '').replace(/^\/api\//, '');
      const args = Object.fromEntries(new URLSearchParams(body));
      const reply = (payload) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
      if (method === 'auth.test') return reply({ ok: true, user_id: 'UBOT', bot_id: 'BBOT', team_id: 'T1' });
      if (method === 'chat.postMessage') return reply({ ok: true, channel: args.channel, ts: `${++ts}.000100` });
      if (method === 'chat.update') return reply({ ok: true, channel: args.channel, ts: args.ts });
      if (method === 'users.info') return reply({ ok: true, user: { id: args.user, name: 'person' } });
      return reply({ ok: true });
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/api/`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** A block_actions click as Slack posts it, signed v0 with the signing secret. */
export function signedClick({ user, channel, messageTs, actionId, value }) {
  const payload = {
    type: 'block_actions',
    team: { id: 'T1' },
    user: { id: user, username: user, name: user },
    channel: { id: channel },
    container: { type: 'message', message_ts: messageTs, channel_id: channel },
    message: { ts: messageTs },
    trigger_id: 'trigger',
    actions: [{ type: 'button', action_id: actionId, value, block_id: 'askseam.controls' }],
  };
  const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = `v0=${createHmac('sha256', slackSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  return new Request('http://bench.local/api/slack', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': timestamp, 'x-slack-signature': signature },
    body,
  });
}
