import { afterEach, describe, expect, it } from 'vitest';
import { UserQuestions, type AskUserQuestionItem } from '@askseam/user-questions';
import { createChatProvider, type Chat } from './chat-provider.js';

/** A chat whose person replies from a script, and which keeps every message the bot sent. */
function scriptedChat(replies: string[]): Chat & { sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    send: async (text) => void sent.push(text),
    nextMessage: async () => {
      const reply = replies.shift();
      if (reply === undefined) throw new Error('the script has no more replies');
      return reply;
    },
  };
}

const questions: AskUserQuestionItem[] = [
  { id: 'name', header: 'Project name', question: 'What should the project be called?', input: { kind: 'text' }, required: true },
  { id: 'framework', header: 'Framework', question: 'Which framework?', options: [{ label: 'React (Recommended)' }, { label: 'Vue' }] },
  { id: 'git', question: 'Initialise Git?', input: { kind: 'checkbox' } },
];

describe('a chat provider built on renderText and parseTextReply', () => {
  let dispose = () => {};
  afterEach(() => dispose());

  it('asks in text and returns the answer the reply stands for', async () => {
    const seam = new UserQuestions();
    const chat = scriptedChat(['name: askseam; framework: react; git: yes']);
    dispose = seam.registerProvider(createChatProvider(chat));
    await expect(seam.ask({ questions })).resolves.toEqual({
      answers: [
        { id: 'name', selected: [], custom: 'askseam' },
        { id: 'framework', selected: ['React (Recommended)'] },
        { id: 'git', selected: [], custom: 'true' },
      ],
    });
    expect(chat.sent[0]).toContain('1. [Project name] What should the project be called? (required)');
  });

  it('names what it could not understand and reads the next reply', async () => {
    const seam = new UserQuestions();
    const chat = scriptedChat(['2: Vue', '1: askseam\n2: Vue\n3: no']);
    dispose = seam.registerProvider(createChatProvider(chat));
    const answer = await seam.ask({ questions });
    expect(answer.answers.map((item) => item.custom ?? item.selected[0])).toEqual(['askseam', 'Vue', 'false']);
    expect(chat.sent[1]).toBe('• Question 1 is required; please answer it.');
  });

  it('gives up as cancelled after three replies it cannot use', async () => {
    const seam = new UserQuestions();
    dispose = seam.registerProvider(createChatProvider(scriptedChat(['?', '??', '???'])));
    await expect(seam.ask({ questions })).rejects.toMatchObject({ code: 'ASK_CANCELLED' });
  });
});
