import type { QuestionRecord, QuestionStore } from '@askseam/store';
import type { Cluster } from './cluster.js';
import type { BackgroundWork } from './lifecycle.js';
import type { HostLogger } from './logger.js';
import { callNotifier, type Notifier } from './notify.js';
import type { PendingQuestion, PendingTable } from './pending.js';
import { onlyQuestion, type Principal } from './principal.js';
import type { Reporter } from './reporter.js';
import { describeAnswerer, destinationsOf, isAnswerer, routeOf, tierDueAt, type AgentAnswerer, type Candidate, type Route, type RouteContext, type Tier } from './route.js';

/** One routed question as this node knows it. */
interface RoutePlan {
  readonly entry: PendingQuestion;
  readonly tiers: readonly Tier[];
  /** The highest tier reached (0 at once); only grows. */
  reached: number;
  readonly timers: Set<ReturnType<typeof setTimeout>>;
  /** Aborted when the question leaves this node (settled, withdrawn, host closed): agents stop. Only routes with agents have one. */
  readonly done: AbortController | undefined;
}

/** What the routing needs of the rest of the host, given once both exist (they need the routing too). */
export interface RoutingPeers {
  /** A later tier was reached (it was `before`): show the question to whoever may see it now but could not before, and tell channels of new destinations. */
  reveal(entry: PendingQuestion, before: number): void;
  /** Let the tier's agent answerers try, one after the other; resolves true once one answered. */
  runAgents(entry: PendingQuestion, tier: number, agents: AgentAnswerer[], signal: AbortSignal): Promise<'answered' | 'gave-up' | 'settled'>;
}

export interface RoutingDeps {
  route: Route | undefined;
  store: QuestionStore;
  pending: PendingTable;
  cluster: Cluster;
  reporter: Reporter;
  logger: HostLogger;
  work: BackgroundWork;
  notify: Notifier | undefined;
  linkFor?: ((record: QuestionRecord) => string | undefined) | undefined;
}

const questionLeft = new Error('The question was settled or withdrawn, or the host closed.');

// setTimeout's longest delay; a later tier is re-armed when this one fires early.
const maxTimerMs = 2 ** 31 - 1;

/**
 * The host's `route` policy (docs/routing.md): which tiers of answerers each pending question has,
 * which are reached (tier 0 at once, each later one `after` ms from the ask, or at once when the
 * agents of the tier before give up), who may see and answer it now, and escalating each tier once:
 * the `escalated` event, `notify` and the tier's agents. Without `route`, every check says yes.
 */
export class Routing {
  readonly #plans = new Map<string, RoutePlan>();
  /** Asked here and being saved: routed from the moment it is listed, before its plan (timers, agents) starts. */
  readonly #reserved = new Map<string, readonly Tier[]>();
  #peers: RoutingPeers | undefined;
  #closed = false;

  constructor(private readonly deps: RoutingDeps) {}

  get active(): boolean {
    return this.deps.route !== undefined;
  }

  attach(peers: RoutingPeers): void {
    this.#peers = peers;
  }

  /** The checked tiers of a question about to be asked, or undefined when it is unrouted. Throws `INVALID_ROUTE` (the ask is refused). */
  tiersFor(record: QuestionRecord): Tier[] | undefined {
    const tiers = this.deps.route === undefined ? undefined : routeOf(this.deps.route, record.questions, contextOf(record));
    if (tiers !== undefined) this.#reserved.set(record.rpcId, tiers);
    return tiers;
  }

  /**
   * Start routing a pending question this node holds: one just asked here (`asked`, with its
   * checked `tiers`), one another node asked, or one restored from the store. Tiers already due
   * are reached at once; the rest get timers. Idempotent.
   */
  track(entry: PendingQuestion, options: { asked?: { tiers: Tier[] | undefined } } = {}): void {
    const { route, logger, work } = this.deps;
    if (route === undefined || this.#closed || this.#plans.has(entry.rpcId)) return;
    this.#reserved.delete(entry.rpcId);
    let tiers: readonly Tier[] | undefined;
    if (options.asked !== undefined) {
      tiers = options.asked.tiers;
    } else {
      try {
        tiers = routeOf(route, entry.questions, contextOf(entry.record));
      } catch (error) {
        // Fail closed: a question whose route cannot be read again is answerable by nobody rather than by everybody.
        logger.error('options.route failed for a stored question; nobody may answer it on this node until the route works again', { rpcId: entry.rpcId, error: String(error) });
        tiers = [{ answerers: [] }];
      }
    }
    if (tiers === undefined) return;
    const hasAgents = tiers.some((tier) => tier.answerers.some((answerer) => 'agent' in answerer));
    const plan: RoutePlan = { entry, tiers, reached: tierDueAt(tiers, entry.askedAt, Date.now()), timers: new Set(), done: hasAgents ? new AbortController() : undefined };
    this.#plans.set(entry.rpcId, plan);
    this.#arm(plan);
    if (options.asked !== undefined) {
      // Asked here: this node alone reaches tier 0, so its agents run once.
      work.track(this.#runTierAgents(plan, 0));
      // A route whose later tiers are all already due (after: 0) escalates them now.
      for (let tier = 1; tier <= plan.reached; tier++) work.track(this.#escalate(plan, tier, 'after'));
    } else if (plan.reached > 0) {
      // Restored or adopted: tiers that came due while no node held it (the event log says which were escalated).
      work.track(this.#catchUpAndEscalate(plan));
    }
  }

  /**
   * May this principal (an in-process channel: with its `via`) see the question: be sent it, list
   * it? At the tier reached now, or at tier `atTier`. Questions without a route: yes.
   */
  maySee(rpcId: string, principal: Principal, via?: string, atTier?: number): boolean {
    const state = this.#stateNow(rpcId);
    if (state === undefined || onlyQuestion(principal) !== undefined) return true;
    const candidate = { ...candidateOf(principal, this.deps.logger), ...(via === undefined ? {} : { channelVia: via }) };
    return isAnswerer(state.tiers, atTier ?? state.reached, candidate);
  }

  /** The reached `{ channel }` destinations of the channel named `via` (now, or at tier `atTier`); undefined for an unrouted question. */
  destinations(rpcId: string, via: string, atTier?: number): string[] | undefined {
    const state = this.#stateNow(rpcId);
    return state === undefined ? undefined : destinationsOf(state.tiers, atTier ?? state.reached, via);
  }

  /**
   * The route check of one response (respond.ts step 2): resolves to a predicate that says whether
   * the responder is an answerer of a reached tier, or undefined for an unrouted question. A tier
   * another node reached early (fall-through) is read from the event log before saying no.
   */
  async answerCheck(rpcId: string, principal: Principal, destination?: string): Promise<(() => boolean) | undefined> {
    // A one-question link is a capability the app minted for a person it chose to tell.
    if (onlyQuestion(principal) !== undefined) return undefined;
    const candidate = candidateOf(principal, this.deps.logger, destination);
    const plan = this.#plans.get(rpcId);
    if (plan !== undefined && !isAnswerer(plan.tiers, this.#reachedNow(plan), candidate) && isAnswerer(plan.tiers, plan.tiers.length - 1, candidate)) await this.#readReached(plan);
    // Read when respond() runs its checks, not now: the question may have been saved (and its plan
    // started) meanwhile; an unrouted or unknown question passes (respond's own checks decide).
    return () => {
      const state = this.#stateNow(rpcId);
      return state === undefined || isAnswerer(state.tiers, state.reached, candidate);
    };
  }

  /**
   * The highest tier of a routed question reached now (by the clock, as the answer check decides)
   * and that tier's answerers, named as the `escalated` event names them (`group:leads`).
   * Undefined when the question is unrouted or this node does not hold it.
   */
  reachedTier(rpcId: string): { tier: number; answerers: string[] } | undefined {
    const state = this.#stateNow(rpcId);
    if (state === undefined) return undefined;
    const tier = Math.min(state.reached, state.tiers.length - 1);
    return { tier, answerers: state.tiers[tier]!.answerers.map(describeAnswerer) };
  }

  /** The tiers of a routed question and the tier reached now; undefined when it is unrouted or not known here. */
  #stateNow(rpcId: string): { tiers: readonly Tier[]; reached: number } | undefined {
    const plan = this.#plans.get(rpcId);
    if (plan !== undefined) return { tiers: plan.tiers, reached: this.#reachedNow(plan) };
    const reserved = this.#reserved.get(rpcId);
    return reserved === undefined ? undefined : { tiers: reserved, reached: 0 };
  }

  /** The question left this node (settled, withdrawn): its timers and agents stop. */
  forget(rpcId: string): void {
    this.#reserved.delete(rpcId);
    const plan = this.#plans.get(rpcId);
    if (plan === undefined) return;
    this.#plans.delete(rpcId);
    for (const timer of plan.timers) clearTimeout(timer);
    // A reason of our own: the default one is a DOMException, whose stack costs more than the rest of a settlement.
    plan.done?.abort(questionLeft);
  }

  /** The host is closing: no timer fires and no agent goes on. */
  close(): void {
    this.#closed = true;
    this.#reserved.clear();
    for (const rpcId of [...this.#plans.keys()]) this.forget(rpcId);
  }

  #reachedNow(plan: RoutePlan): number {
    // A timer may fire a little late; the clock decides, so an answer on time is never refused.
    // (Only read here: the timer itself reveals the question, so a delivery loop never sends it twice.)
    return Math.max(plan.reached, tierDueAt(plan.tiers, plan.entry.askedAt, Date.now()));
  }

  /** Set the reached tier here and show the question to whoever may now see it (every node does this for its own subscribers). */
  #reach(plan: RoutePlan, tier: number): boolean {
    if (tier <= plan.reached) return false;
    const before = plan.reached;
    plan.reached = tier;
    this.#peers?.reveal(plan.entry, before);
    return true;
  }

  #arm(plan: RoutePlan): void {
    const asked = Date.parse(plan.entry.askedAt);
    plan.tiers.forEach((tier, index) => {
      if (index <= plan.reached) return;
      this.#armTier(plan, index, asked + (tier.after ?? 0));
    });
  }

  #armTier(plan: RoutePlan, tier: number, at: number): void {
    const timer = setTimeout(() => {
      plan.timers.delete(timer);
      if (this.#plans.get(plan.entry.rpcId) !== plan) return;
      if (Date.now() < at) return this.#armTier(plan, tier, at);
      if (this.#reach(plan, tier)) this.deps.work.track(this.#escalate(plan, tier, 'after'));
    }, Math.min(maxTimerMs, Math.max(0, at - Date.now())));
    // The host's listener keeps the process alive; a timer alone must not.
    timer.unref?.();
    plan.timers.add(timer);
  }

  /**
   * Escalate one reached tier, once across every node on the store: the node that takes the tier's
   * lease (or, alone, this node) writes `escalated`, notifies, and runs the tier's agents.
   */
  async #escalate(plan: RoutePlan, tier: number, reason: 'after' | 'fall-through'): Promise<void> {
    const { cluster, reporter, logger, notify, linkFor } = this.deps;
    const { entry } = plan;
    try {
      if (cluster.takeEscalationLease !== undefined && !(await cluster.takeEscalationLease(entry.rpcId, tier))) return;
    } catch (error) {
      logger.error('could not take the escalation lease; another node may escalate this tier', { rpcId: entry.rpcId, tier, error: String(error) });
      return;
    }
    if (this.#plans.get(entry.rpcId) !== plan) return;
    const answerers = plan.tiers[tier]!.answerers;
    reporter.report({ kind: 'escalated', rpcId: entry.rpcId, sessionId: entry.sessionId, tier, reason, answerers: answerers.map(describeAnswerer) }, { log: true });
    callNotifier(notify, entry.record, logger, linkFor, { tier, answerers: [...answerers] });
    await this.#runTierAgents(plan, tier);
  }

  /** Let a reached tier's agents try; when they all give up, the next tier is reached at once. */
  async #runTierAgents(plan: RoutePlan, tier: number): Promise<void> {
    const agents = plan.tiers[tier]!.answerers.filter((answerer): answerer is AgentAnswerer => 'agent' in answerer);
    if (agents.length === 0 || this.#peers === undefined || plan.done === undefined) return;
    const ended = await this.#peers.runAgents(plan.entry, tier, agents, plan.done.signal);
    if (ended !== 'gave-up' || this.#plans.get(plan.entry.rpcId) !== plan) return;
    const next = tier + 1;
    if (next < plan.tiers.length && this.#reach(plan, next)) await this.#escalate(plan, next, 'fall-through');
  }

  /** The highest tier the event log says was escalated (by any node), taken as reached here. */
  async #readReached(plan: RoutePlan): Promise<number> {
    try {
      const events = await this.deps.store.readEvents(plan.entry.sessionId);
      let logged = 0;
      for (const event of events) if (event.type === 'escalated' && event.rpcId === plan.entry.rpcId) logged = Math.max(logged, event.data.tier);
      this.#reach(plan, Math.min(logged, plan.tiers.length - 1));
      return logged;
    } catch (error) {
      this.deps.logger.error('could not read the event log for a routed question; going by its timers', { rpcId: plan.entry.rpcId, error: String(error) });
      return plan.tiers.length;
    }
  }

  /** After a restart: escalate (once) each tier that came due while no host held the question and that the log does not show escalated. */
  async #catchUpAndEscalate(plan: RoutePlan): Promise<void> {
    const due = plan.reached;
    const logged = await this.#readReached(plan);
    for (let tier = logged + 1; tier <= due; tier++) {
      if (this.#plans.get(plan.entry.rpcId) !== plan) return;
      await this.#escalate(plan, tier, 'after');
    }
  }
}

function contextOf(record: QuestionRecord): RouteContext {
  return {
    rpcId: record.rpcId,
    sessionId: record.sessionId,
    askedBy: record.askedBy,
    askedAt: record.askedAt,
    ...(record.urgency === undefined ? {} : { urgency: record.urgency }),
  };
}

// The principals the host makes for agent answerers, with the agent's name.
const agentNames = new WeakMap<Principal, string>();

/** The principal an agent answerer's responses are judged as: it sees the question's session only. */
export function agentPrincipal(name: string, sessionId: string): Principal {
  const principal: Principal = { id: `agent:${name}`, canSee: (session) => session === sessionId, sessions: [sessionId], sessionsExhaustive: true };
  agentNames.set(principal, name);
  return principal;
}

/** Who a principal is as the route check sees it; a throwing `groups` getter means "no groups" (an error never widens access). */
function candidateOf(principal: Principal, logger: HostLogger, destination?: string): Candidate {
  const agent = agentNames.get(principal);
  let groups: readonly string[] = [];
  try {
    const listed: unknown = principal.groups;
    if (Array.isArray(listed)) groups = listed.filter((group): group is string => typeof group === 'string');
  } catch (error) {
    logger.error('principal.groups threw; treating the principal as in no group', { principalId: principal.id, error: String(error) });
  }
  return { principalId: principal.id, groups, ...(destination === undefined ? {} : { destination }), ...(agent === undefined ? {} : { agent }) };
}
