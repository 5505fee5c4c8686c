import type { Chat } from 'chat';

/**
 * Tell one person something about their click (a refusal, "already answered"): ephemeral where
 * the platform has it (Slack), else a reply in the card's thread so it is not silently dropped.
 */
export async function tell(bot: Chat, threadId: string, user: { userId: string }, text: string): Promise<void> {
  const thread = bot.thread(threadId);
  const sent = await thread.postEphemeral(user.userId, { markdown: text }, { fallbackToDM: false });
  if (sent === null) await thread.post({ markdown: text });
}
