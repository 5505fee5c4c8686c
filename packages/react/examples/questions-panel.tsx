import { connectQuestions, type QuestionClient } from '@askseam/client';
import { AskseamQuestions, useQuestions } from '@askseam/react';
import { useEffect, useState } from 'react';

/**
 * A panel for a React app: a summary line and a list from `useQuestions`, and the
 * `<askseam-questions>` element where the person answers. Renders on a server (as "none: 0 waiting")
 * and hydrates; the client is made in the browser only, in an effect.
 */
export function QuestionsPanel({ url, token }: { url: string; token: string }) {
  const [client, setClient] = useState<QuestionClient>();
  useEffect(() => {
    const made = connectQuestions({ url, token });
    setClient(made);
    return () => made.close();
  }, [url, token]);

  const { connection, pending, receipts, cancel } = useQuestions(client);
  const [answered, setAnswered] = useState(0);

  return (
    <section>
      <p data-testid="summary">
        {connection}: {pending.length} waiting, {answered} answered
      </p>
      <ul>
        {pending.map((request) => (
          <li key={request.rpcId}>
            {request.questions[0]?.question}{' '}
            <button type="button" onClick={() => void cancel(request.rpcId).catch(() => undefined)}>
              Dismiss
            </button>{' '}
            {receipts.get(request.rpcId)?.state}
          </li>
        ))}
      </ul>
      <AskseamQuestions client={client} lang="en" notify onAnswered={() => setAnswered((count) => count + 1)} />
    </section>
  );
}
