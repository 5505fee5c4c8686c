import { UserQuestionError, UserQuestions, type AgentRef, type UserQuestionProvider } from '@askseam/user-questions';

/** Answers every question with its first option: enough to see the seam work end to end. */
const firstOption: UserQuestionProvider = {
  async ask({ questions }) {
    return {
      answers: questions.map(({ id, options }) => ({ id, selected: options?.[0] ? [options[0].label] : [] })),
    };
  },
};

export async function chooseDatabase(): Promise<string> {
  // The registry says which agents are live and which are roots: only a root reaches the user.
  const agent: AgentRef = { id: 'main' };
  const userQuestions = new UserQuestions({
    agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] },
  });
  const dispose = userQuestions.registerProvider(firstOption);
  try {
    const { answers } = await userQuestions.ask({
      agent,
      timeoutMs: 5 * 60_000,
      questions: [
        {
          id: 'db',
          header: 'Database',
          question: 'Which database should the service use?',
          options: [
            { label: 'Postgres (Recommended)', description: 'Mature, and the team runs it already.' },
            { label: 'SQLite', description: 'One file, nothing to operate.' },
          ],
        },
      ],
    });
    // answers[i] belongs to questions[i]; a skip is { id, selected: [] }.
    const [db] = answers;
    return db?.custom ?? db?.selected[0] ?? 'undecided';
  } catch (error) {
    // #region is-instance
    if (UserQuestionError.isInstance(error) && error.code === 'ASK_TIMEOUT') return 'undecided';
    // #endregion is-instance
    throw error;
  } finally {
    dispose();
  }
}
