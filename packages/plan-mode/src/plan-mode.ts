/** A change of one agent's plan mode, as listeners see it. */
export interface PlanModeChange {
  agentId: string;
  active: boolean;
}

export type PlanModeListener = (change: PlanModeChange) => void;

export interface PlanModeOptions {
  /**
   * Where a listener's error goes. A failing listener never undoes or blocks the change, and the
   * other listeners still run. Defaults to `console.error`.
   */
  onListenerError?: (error: unknown, change: PlanModeChange) => void;
}

/**
 * Which agents are in plan mode: they may read and plan, and leave it only when the user approves
 * their plan through `exit_plan_mode`. Keyed by agent id; an agent is off until it enters.
 */
export class PlanMode {
  readonly #active = new Set<string>();
  readonly #listeners = new Set<PlanModeListener>();
  readonly #onListenerError: (error: unknown, change: PlanModeChange) => void;

  constructor(options: PlanModeOptions = {}) {
    this.#onListenerError =
      options.onListenerError ?? ((error, change) => console.error(`A plan-mode listener failed for agent "${change.agentId}":`, error));
  }

  /** Turn plan mode on for `agentId`. Returns false (and tells no one) when it was already on. */
  enter(agentId: string): boolean {
    if (this.#active.has(agentId)) return false;
    this.#active.add(agentId);
    this.#notify({ agentId, active: true });
    return true;
  }

  /** Turn plan mode off for `agentId`. Returns false (and tells no one) when it was already off. */
  exit(agentId: string): boolean {
    if (!this.#active.delete(agentId)) return false;
    this.#notify({ agentId, active: false });
    return true;
  }

  isActive(agentId: string): boolean {
    return this.#active.has(agentId);
  }

  /** Call `listener` after every change. Returns an idempotent unsubscribe. */
  onChange(listener: PlanModeListener): () => void {
    // Wrapped so that subscribing the same function twice gives two independent subscriptions.
    const subscription: PlanModeListener = (change) => listener(change);
    this.#listeners.add(subscription);
    return () => {
      this.#listeners.delete(subscription);
    };
  }

  #notify(change: PlanModeChange): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(change);
      } catch (error) {
        // The state has already changed; a listener's bug must not make the tool that changed it throw.
        this.#onListenerError(error, change);
      }
    }
  }
}
