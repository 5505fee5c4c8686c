// A user-question provider for any chat channel that carries plain text (an IM bot, email, SMS):
// it sends the questions as text, reads the person's reply, and asks again about what it could
// not understand. Register it with `userQuestions.registerProvider(createChatProvider(chat))`.
import { UserQuestionError, type UserQuestionProvider } from '@askseam/user-questions';
import { parseTextReply, renderText } from '@askseam/text';

export interface Chat {
  send(text: string): Promise<void>;
  /** The person's next message; rejects when `signal` aborts. */
  nextMessage(signal?: AbortSignal): Promise<string>;
}

export function createChatProvider(chat: Chat, { attempts = 3 } = {}): UserQuestionProvider {
  return {
    async ask(request) {
      await chat.send(renderText(request, { budget: 4000 }));
      for (let attempt = 1; attempt <= attempts; attempt++) {
        const reply = await chat.nextMessage(request.signal);
        const result = parseTextReply(request, reply);
        if (result.ok) return result.answer;
        // Name each problem; the questions stay as they were, so the person answers them all again.
        await chat.send(result.problems.map((problem) => `• ${problem.message}`).join('\n'));
      }
      throw new UserQuestionError('ASK_CANCELLED', `No usable reply after ${attempts} attempts.`);
    },
  };
}
