/**
 * A tiny listener registry. A listener that throws is reported and skipped: one broken UI
 * handler must not stop the others, nor the client that called it from a socket callback.
 */
export class Listeners<Events extends object> {
  // Each subscription is its own entry, so subscribing one function twice needs two unsubscribes.
  readonly #byEvent = new Map<keyof Events, Set<{ listener: (value: never) => void }>>();

  on<K extends keyof Events>(event: K, listener: (value: Events[K]) => void): () => void {
    let entries = this.#byEvent.get(event);
    if (entries === undefined) {
      entries = new Set();
      this.#byEvent.set(event, entries);
    }
    const entry = { listener: listener as (value: never) => void };
    entries.add(entry);
    return () => {
      entries.delete(entry);
    };
  }

  emit<K extends keyof Events>(event: K, value: Events[K]): void {
    const entries = this.#byEvent.get(event);
    if (entries === undefined) return;
    // A copy: a listener may subscribe or unsubscribe while we are going through the list.
    for (const entry of [...entries]) {
      try {
        (entry.listener as (value: Events[K]) => void)(value);
      } catch (error) {
        reportListenerError(error);
      }
    }
  }
}

function reportListenerError(error: unknown): void {
  // Browsers surface reportError like an uncaught error (console + window 'error') without
  // unwinding our stack; runtimes without it get a console line instead of a silent loss.
  const report = (globalThis as { reportError?: (error: unknown) => void }).reportError;
  try {
    if (typeof report === 'function') report(error);
    else console.error('askseam client: a listener threw', error);
  } catch {
    // Reporting must never be the thing that breaks the client.
  }
}
