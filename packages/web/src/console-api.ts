// What <askseam-console> reads from the host's console API (docs/console.md): plain fetches, with
// the operator's token as a Bearer header when the page has one, else the page's own cookies.

export interface ConsolePending {
  rpcId: string;
  sessionId: string;
  askedBy: string;
  askedAt: string;
  ageMs: number;
  urgency?: string;
  mode: string;
  questions: { id: string; header?: string; question: string }[];
  tier?: string;
}

export interface ConsoleSettled {
  rpcId: string;
  sessionId: string;
  askedBy: string;
  askedAt: string;
  settledAt?: string;
  outcome: string;
  answeredBy?: { principalId: string; via: string; user?: string; destination?: string };
  timeToSettleMs?: number;
  questions: { id: string; header?: string; question: string }[];
}

export interface ConsoleEvent {
  id: number;
  at: string;
  type: string;
  rpcId: string;
  sessionId: string;
  data: Record<string, unknown>;
}

export interface ConsoleStatsView {
  from: string;
  to: string;
  timeToAnswer: { at: string; count: number; p50Ms?: number; p90Ms?: number }[];
  pending: { at: string; count: number }[];
  rejections: { reason: string; count: number }[];
  sample: { settled: number; sessions: number; complete: boolean };
}

export interface ConsoleQuarantined {
  rpcId: string;
  sessionId?: string;
  reason: string;
  at: string;
  advice: string;
}

export interface HistoryFilter {
  agent?: string;
  session?: string;
  outcome?: string;
  cursor?: string;
}

/** A refused or failed call: the host's own problem text, shown to the operator as it is. */
export class ConsoleApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class ConsoleApi {
  constructor(
    private readonly base: string,
    private readonly token: string | undefined,
  ) {}

  pending(): Promise<{ questions: ConsolePending[]; canNotify: boolean }> {
    return this.#get('/pending');
  }

  history(filter: HistoryFilter): Promise<{ questions: ConsoleSettled[]; next?: string }> {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(filter)) if (value !== undefined && value !== '') query.set(key, value);
    const text = query.toString();
    return this.#get(`/history${text === '' ? '' : `?${text}`}`);
  }

  events(sessionId: string): Promise<{ events: ConsoleEvent[] }> {
    return this.#get(`/sessions/${encodeURIComponent(sessionId)}/events?limit=1000`);
  }

  stats(hours: number): Promise<ConsoleStatsView> {
    return this.#get(`/stats?hours=${hours}`);
  }

  quarantined(): Promise<{ questions: ConsoleQuarantined[] }> {
    return this.#get('/quarantined');
  }

  withdraw(rpcId: string, reason: string): Promise<unknown> {
    return this.#post(`/questions/${encodeURIComponent(rpcId)}/withdraw`, reason === '' ? {} : { reason });
  }

  notify(rpcId: string): Promise<unknown> {
    return this.#post(`/questions/${encodeURIComponent(rpcId)}/notify`, {});
  }

  #get<T>(route: string): Promise<T> {
    return this.#call<T>(route, { method: 'GET' });
  }

  #post<T>(route: string, body: unknown): Promise<T> {
    // JSON, never a form: a page of another site cannot send this without the browser asking the host first.
    return this.#call<T>(route, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
  }

  async #call<T>(route: string, init: RequestInit): Promise<T> {
    const headers = new Headers(init.headers);
    if (this.token !== undefined) headers.set('Authorization', `Bearer ${this.token}`);
    const response = await fetch(`${this.base}/console/api${route}`, { ...init, headers, credentials: 'same-origin', cache: 'no-store' });
    const body = (await response.json().catch(() => undefined)) as { error?: { message?: string } } | undefined;
    if (!response.ok) throw new ConsoleApiError(response.status, body?.error?.message ?? `The host answered ${response.status}.`);
    return body as T;
  }
}
