// The benches' person: answers every question a client receives the moment it arrives, and keeps
// count of receipts still in flight (a run that ends before they land would see them reject `closed`).

/** Answer everything `client` is asked with `answer`; returns the shared in-flight counter. */
export function answerAtOnce(client, answer, inFlight = { receipts: 0 }) {
  client.on('requested', (question) => {
    inFlight.receipts++;
    question
      .answer(answer)
      .catch((error) => console.error('answer failed', error))
      .finally(() => inFlight.receipts--);
  });
  return inFlight;
}
