import type { QuestionUrgency } from '@askseam/store';
import { isSealedQuestionBatch, type AskUserQuestionAnswer, type AskUserQuestionItem } from '@askseam/user-questions';
// Namespace import: lets bundlers drop the parts of zod (locales) we never use.
import * as z from 'zod';
import { WebSocketHostError } from './errors.js';

/** What `route` is told about the question besides its items. */
export interface RouteContext {
  rpcId: string;
  /** The session whose clients see the question (the asking agent's id for a blocking ask). */
  sessionId: string;
  askedBy: string;
  askedAt: string;
  urgency?: QuestionUrgency;
}

/** What an agent answerer is told besides the question's items. */
export interface AgentAnswerContext extends RouteContext {
  /** The index of the tier the agent sits in. */
  tier: number;
  /**
   * askseam's own problem text for the agent's previous answer, which did not fit the questions:
   * set on the one second try an agent gets. Absent on the first try.
   */
  feedback?: string;
  /** Aborted once the question is settled elsewhere or the host closes: stop working on it. */
  signal: AbortSignal;
}

/** What an agent answerer returns: an answer to every question, or `'defer'` to let the next tier have it. */
export type AgentAnswerResult = AskUserQuestionAnswer | 'defer';

/** An agent that may answer a question in place of a person (`agentAnswerer`). */
export interface AgentAnswerer {
  /** The agent's name: its answers are recorded as `agent:<name>`. */
  readonly agent: string;
  answer(questions: AskUserQuestionItem[], context: AgentAnswerContext): AgentAnswerResult | Promise<AgentAnswerResult>;
}

/** Who may answer in a tier. */
export type Answerer =
  /** A person: the `id` of the principal `authenticate` returns for them. */
  | { principal: string }
  /** Every principal whose `groups` lists this group. */
  | { group: string }
  /** A channel destination, as the channel names it: `'slack:C0123'`, `'email:oncall@example.com'`. */
  | { channel: string }
  | AgentAnswerer;

/** One step of a route: who may answer once it is reached. */
export interface Tier {
  answerers: Answerer[];
  /**
   * When the tier is reached, in ms from the ask (not from the previous tier). Tier 0 is reached at
   * once (leave it out there); every later tier needs it, no smaller than the tier before's.
   */
  after?: number;
}

/**
 * Decides who may answer a question, and when each tier is reached. Called once per question on
 * each node that holds it (and again after a restart), so it must give the same tiers for the same
 * question: base it on the question and its context, not on the clock. Return `undefined` for a
 * question anyone who can see its session may answer (today's behaviour).
 */
export type Route = (questions: AskUserQuestionItem[], context: RouteContext) => Tier[] | undefined;

/** An agent answerer to place in a tier: `{ name, answer(questions, context) }` → an answer or `'defer'`. */
export function agentAnswerer(definition: { name: string; answer: AgentAnswerer['answer'] }): AgentAnswerer {
  const parsed = agentDefinitionSchema.safeParse(definition);
  if (!parsed.success) {
    throw new WebSocketHostError('INVALID_ROUTE', `agentAnswerer needs { name, answer }: ${parsed.error.issues[0]?.message ?? 'invalid'}.`);
  }
  const { name, answer } = definition;
  return Object.freeze({ agent: name, answer: (questions: AskUserQuestionItem[], context: AgentAnswerContext) => answer(questions, context) });
}

const nameSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'a name of letters, digits, ".", "_" or "-" (at most 64)');
const aFunction = z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function', 'must be a function');
const agentDefinitionSchema = z.object({ name: nameSchema, answer: aFunction });

const channelPattern = /^[a-z][a-z0-9-]{0,31}:.+$/;
const agentNamePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * Why `tiers` cannot be used, or undefined when they can. Written out rather than a zod schema:
 * it runs once per ask, and a union schema costs more than the rest of the ask (docs/performance.md, section 9).
 */
function tiersProblem(tiers: unknown): string | undefined {
  if (!Array.isArray(tiers)) return 'the route must return an array of tiers (or undefined for no route)';
  if (tiers.length === 0) return 'a route needs at least one tier (return undefined for no route)';
  let previous = 0;
  for (let index = 0; index < tiers.length; index++) {
    const tier: unknown = tiers[index];
    if (typeof tier !== 'object' || tier === null) return `tiers.${index}: a tier is { answerers, after? }`;
    const { answerers, after } = tier as { answerers?: unknown; after?: unknown };
    if (after !== undefined && (typeof after !== 'number' || !Number.isSafeInteger(after) || after < 0)) return `tiers.${index}.after: must be a whole number of ms, 0 or more`;
    if (index === 0 && (after ?? 0) !== 0) return 'tiers.0.after: tier 0 is reached at once; leave its after out';
    if (index > 0 && after === undefined) return `tiers.${index}.after: every tier after the first needs after (ms from the ask)`;
    if (index > 0 && (after as number) < previous) return `tiers.${index}.after: must be no smaller than the previous tier's (${previous})`;
    previous = (after as number | undefined) ?? 0;
    if (!Array.isArray(answerers) || answerers.length === 0) return `tiers.${index}.answerers: a tier needs at least one answerer`;
    for (let at = 0; at < answerers.length; at++) {
      const problem = answererProblem(answerers[at]);
      if (problem !== undefined) return `tiers.${index}.answerers.${at}: ${problem}`;
    }
  }
  return undefined;
}

function answererProblem(answerer: unknown): string | undefined {
  if (typeof answerer !== 'object' || answerer === null) return 'an answerer is { principal }, { group }, { channel } or agentAnswerer(…)';
  const fields = answerer as Record<string, unknown>;
  if ('agent' in fields) {
    if (typeof fields.agent !== 'string' || !agentNamePattern.test(fields.agent)) return 'an agent needs a name of letters, digits, ".", "_" or "-" (at most 64)';
    return typeof fields.answer === 'function' ? undefined : 'an agent needs answer(questions, context); make it with agentAnswerer()';
  }
  const keys = Object.keys(fields);
  if (keys.length !== 1) return 'an answerer is exactly one of { principal }, { group }, { channel }';
  const [key] = keys;
  const value = fields[key!];
  if ((key === 'principal' || key === 'group') && typeof value === 'string' && value.length > 0) return undefined;
  if (key === 'channel' && typeof value === 'string' && channelPattern.test(value)) return undefined;
  if (key === 'channel') return 'a channel destination is "<via>:<where>", e.g. "slack:C0123"';
  return 'an answerer is { principal: id }, { group: name }, { channel: "<via>:<where>" } or agentAnswerer(…)';
}

/** The route's tiers for a question (checked), or undefined for an unrouted one. Throws `INVALID_ROUTE`. */
export function routeOf(route: Route, questions: AskUserQuestionItem[], context: RouteContext): Tier[] | undefined {
  let tiers: unknown;
  try {
    // The seam's sealed batch is frozen, so the route can read it but not change what is asked.
    tiers = route(isSealedQuestionBatch(questions) ? questions : structuredClone(questions), { ...context });
  } catch (error) {
    throw new WebSocketHostError('INVALID_ROUTE', `options.route threw for question ${context.rpcId}, so it was not asked: ${String(error)}`, { cause: error });
  }
  if (tiers === undefined) return undefined;
  const problem = tiersProblem(tiers);
  if (problem !== undefined) throw new WebSocketHostError('INVALID_ROUTE', `options.route returned tiers that cannot be used for question ${context.rpcId}: ${problem}.`);
  // The caller's objects (agents keep their own `answer`), in an array the caller cannot change later.
  return Object.freeze((tiers as Tier[]).map((tier) => Object.freeze({ answerers: [...tier.answerers], ...(tier.after === undefined ? {} : { after: tier.after }) }))) as Tier[];
}

/** How a tier's answerers read in the event log and in logs: `principal:alice`, `group:oncall`, `channel:slack:C0123`, `agent:triage`. */
export function describeAnswerer(answerer: Answerer): string {
  if ('agent' in answerer) return `agent:${answerer.agent}`;
  if ('principal' in answerer) return `principal:${answerer.principal}`;
  if ('group' in answerer) return `group:${answerer.group}`;
  return `channel:${answerer.channel}`;
}

/** Who is answering, as the route check sees them. */
export interface Candidate {
  principalId: string;
  groups: readonly string[];
  /** The channel destination the answer came through (channels only). */
  destination?: string;
  /** The agent answerer's name (agents only). */
  agent?: string;
  /** An in-process channel's `via` (visibility only): it may show a question a reached tier names one of its destinations for. */
  channelVia?: string;
}

/** True when `candidate` is an answerer of one of the tiers 0..`reached`. */
export function isAnswerer(tiers: readonly Tier[], reached: number, candidate: Candidate): boolean {
  for (const tier of tiers.slice(0, reached + 1)) {
    for (const answerer of tier.answerers) {
      if ('agent' in answerer) {
        if (candidate.agent === answerer.agent) return true;
      } else if (candidate.agent !== undefined) {
        // An agent is an answerer only where it is named as one.
        continue;
      } else if ('principal' in answerer) {
        if (answerer.principal === candidate.principalId) return true;
      } else if ('group' in answerer) {
        if (candidate.groups.includes(answerer.group)) return true;
      } else if (candidate.destination !== undefined && answerer.channel === candidate.destination) {
        return true;
      } else if (candidate.channelVia !== undefined && answerer.channel.startsWith(`${candidate.channelVia}:`)) {
        return true;
      }
    }
  }
  return false;
}

/** The `{ channel }` destinations of tiers 0..`reached` that belong to the channel named `via` (`slack:C0123` for `slack`), in route order. */
export function destinationsOf(tiers: readonly Tier[], reached: number, via: string): string[] {
  const found: string[] = [];
  for (const tier of tiers.slice(0, reached + 1)) {
    for (const answerer of tier.answerers) {
      if ('channel' in answerer && answerer.channel.startsWith(`${via}:`) && !found.includes(answerer.channel)) found.push(answerer.channel);
    }
  }
  return found;
}

/** The highest tier whose `after` has passed at `now` for a question asked at `askedAt`. */
export function tierDueAt(tiers: readonly Tier[], askedAt: string, now: number): number {
  const asked = Date.parse(askedAt);
  let due = 0;
  tiers.forEach((tier, index) => {
    if (index > 0 && asked + (tier.after ?? 0) <= now) due = index;
  });
  return due;
}
