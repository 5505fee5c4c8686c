// Section 12: the operator console's paging (issue 27: "10,000 settled questions stay fast"). Two
// hosts in this process, each on its own SQLite file: one holding `settled` settled questions, one
// holding `baselineSettled`. The same HTTP requests the <askseam-console> element makes (Bearer
// operatorToken, the element's default page of 50) go to both in alternating blocks: the history's
// first page, a page deep in it (reached by following `next`), the same with a filter, and the
// charts' stats. Every response must be 200 with the page it should have, so a broken API crashes
// the section instead of passing as fast.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWebSocketHost } from '@askseam/host-ws';
import { SqliteQuestionStore } from '@askseam/store-sqlite';
import { UserQuestions } from '@askseam/user-questions';
import { figure } from '../lib/figure.mjs';
import { seamAnswer, seamQuestions } from '../lib/fixtures.mjs';
import { interleave, now, quantile } from '../lib/stats.mjs';

const SECTION = 'console';
const OPERATOR_TOKEN = 'bench-operator-token-0123456789abcdef';
/** The element asks for no `limit`, so the host's default page (50) is what an operator pages through. */
const PAGE = 50;
/** The busy agent asks every other question: a filter on it fills a page of 50 in either store. */
const BUSY_AGENT = 'agent-busy';
/** A rare outcome (1 in 20): a filter on it has to skip 19 rows for each one it returns. */
const RARE_OUTCOME = 'timed_out';
const SESSIONS = 100;
/** An agent that never asked: filtering on it reads every settled row to return an empty page. */
const NOBODY = 'agent-who-never-asked';
/** Saves (then claims) in flight at once while filling: each group commit carries this many. */
const FILL_CHUNK = 500;
/** Questions still waiting in each store (asked after the history): the console's pending list. */
const PENDING = 20;

export async function run(config) {
  const { settled, baselineSettled, deepRecords, warmup, rounds, perRound, statsRounds, statsPerRound } = config.console;
  if (baselineSettled < 2 * PAGE) throw new Error(`BENCH_CONSOLE_BASELINE must be at least ${2 * PAGE} (two full pages), got ${baselineSettled}.`);
  if (deepRecords + PAGE > settled) throw new Error(`BENCH_CONSOLE_DEEP (${deepRecords}) + a page must fit in BENCH_CONSOLE_SETTLED (${settled}).`);
  const dir = mkdtempSync(join(tmpdir(), 'askseam-bench-console-'));
  const stores = [];
  const hosts = [];
  try {
    const fillStarted = now();
    const large = await filledStore(join(dir, 'large.sqlite'), settled);
    stores.push(large);
    const small = await filledStore(join(dir, 'small.sqlite'), baselineSettled);
    stores.push(small);
    const fillSeconds = (now() - fillStarted) / 1000;
    console.log(`  filled ${settled.toLocaleString('en-US')} + ${baselineSettled} settled questions in ${fillSeconds.toFixed(1)} s`);
    const big = await consoleHost(large, hosts);
    const few = await consoleHost(small, hosts);

    // The pages to time, each as the request the element makes and the check its answer must pass.
    const bigDeep = await cursorAt(big, '', deepRecords);
    const fewDeep = await cursorAt(few, '', PAGE);
    const busy = `agent=${BUSY_AGENT}`;
    // A busy-agent page ~`deepRecords` rows in: half of them are the busy agent's.
    const bigDeepBusy = await cursorAt(big, busy, Math.floor(deepRecords / 2));
    const rare = `outcome=${RARE_OUTCOME}`;
    const fewRareCount = countOf(baselineSettled, (i) => outcomeOf(i) === RARE_OUTCOME);
    const requests = {
      first: { big: history(big, '', PAGE), few: history(few, '', PAGE) },
      deep: { big: history(big, `cursor=${bigDeep}`, PAGE), few: history(few, `cursor=${fewDeep}`, PAGE) },
      busyFirst: { big: history(big, busy, PAGE), few: history(few, busy, PAGE) },
      busyDeep: { big: history(big, `${busy}&cursor=${bigDeepBusy}`, PAGE), few: history(few, busy, PAGE) },
      rareFirst: { big: history(big, rare, PAGE), few: history(few, rare, Math.min(PAGE, fewRareCount)) },
      // The same store both sides: what reading ~1,000 rows for a page costs against ~100 for one.
      rareVsBusy: { big: history(big, rare, PAGE), few: history(big, busy, PAGE) },
      // The worst case of a filter without an index of its own: nothing matches, every settled row is read.
      nobody: { big: history(big, `agent=${NOBODY}`, 0), few: history(few, `agent=${NOBODY}`, 0) },
      pending: { big: pending(big), few: pending(few) },
      stats: { big: stats(big, Math.min(settled, 5000)), few: stats(few, baselineSettled) },
    };

    // The deep pages really are deep: their newest record was asked before the first page's oldest.
    await checkDeeper(requests.first.big, requests.deep.big, deepRecords);

    // Every request warmed up before any is timed: the first pair measured must not carry the JIT's work for the rest.
    for (const pair of Object.values(requests)) {
      const times = pair === requests.stats ? 2 : warmup;
      await timed(pair.big, times);
      await timed(pair.few, times);
    }
    const samples = {};
    for (const [name, pair] of Object.entries(requests)) {
      const isStats = name === 'stats';
      const got = await interleave(
        [
          { name: 'big', run: (count) => timed(pair.big, count) },
          { name: 'few', run: (count) => timed(pair.few, count) },
        ],
        isStats ? { warmup: 0, rounds: statsRounds, perRound: statsPerRound } : { warmup: 0, rounds, perRound },
      );
      samples[name] = got;
      console.log(`  ${name}: p50 ${quantile(got.big, 0.5).toFixed(2)} ms (${settled.toLocaleString('en-US')}) vs ${quantile(got.few, 0.5).toFixed(2)} ms (${baselineSettled})`);
    }
    const statsSample = (await requests.stats.big()).sample;

    const n = (name) => samples[name].big.length;
    const bigName = `${settled.toLocaleString('en-US')} settled`;
    const fewName = `${baselineSettled} settled`;
    const target = { on: 'ratio', op: '<=', value: 2, text: `<= 2× the ${fewName} store` };
    const p50 = (name) => quantile(samples[name].big, 0.5);
    const base = (name, what) => ({ name: `${what}, ${fewName}`, value: quantile(samples[name].few, 0.5) });
    return [
      figure({
        section: SECTION,
        name: `history, first page of ${PAGE}, ${bigName} (GET console/api/history as the element asks it, p50, n=${n('first')})`,
        value: p50('first'),
        unit: 'ms',
        baseline: base('first', 'the same request'),
        target,
        note: `One SQLite file per store (WAL, synchronous=FULL), filled by save + claim through the store (${fillSeconds.toFixed(1)} s for both); ${SESSIONS} sessions, 1 in 20 questions ${RARE_OUTCOME}, 1 in 20 cancelled; each request over HTTP with the operatorToken as Bearer, its body read and checked.`,
      }),
      figure({
        section: SECTION,
        name: `history, a page ${deepRecords.toLocaleString('en-US')} records in (by \`next\` cursors), ${bigName}, p50`,
        value: p50('deep'),
        unit: 'ms',
        baseline: base('deep', `its second (last) page`),
        target,
      }),
      figure({
        section: SECTION,
        name: `history filtered by agent (half of all questions), first page, ${bigName}, p50`,
        value: p50('busyFirst'),
        unit: 'ms',
        baseline: base('busyFirst', 'the same request'),
        target,
      }),
      figure({
        section: SECTION,
        name: `history filtered by agent, a page ${deepRecords.toLocaleString('en-US')} rows in, ${bigName}, p50`,
        value: p50('busyDeep'),
        unit: 'ms',
        baseline: base('busyDeep', 'its first (only full) page'),
        target,
      }),
      figure({
        section: SECTION,
        name: `history filtered by a rare outcome (${RARE_OUTCOME}, 1 in 20), first page of ${PAGE}, ${bigName}, p50`,
        value: p50('rareFirst'),
        unit: 'ms',
        baseline: base('rareFirst', `the same request (${fewRareCount} records)`),
        note: `Informational: the rare filter's page holds ${PAGE} records out of about ${(PAGE * 20).toLocaleString('en-US')} rows, the ${fewName} store's ${fewRareCount}, so this ratio is the page's size; the next row compares equal pages.`,
      }),
      figure({
        section: SECTION,
        name: `history filtered by the rare outcome vs by the busy agent, first page of ${PAGE}, both ${bigName}, p50`,
        value: p50('rareVsBusy'),
        unit: 'ms',
        baseline: { name: `the agent-filtered first page (${PAGE} records), same store`, value: quantile(samples.rareVsBusy.few, 0.5) },
        note: 'Informational: the same page size from the same store; each filter reads only its own index\'s rows, however rare the outcome.',
      }),
      figure({
        section: SECTION,
        name: `history filtered by an agent with no questions (an empty page), ${bigName}, p50`,
        value: p50('nobody'),
        unit: 'ms',
        baseline: base('nobody', 'the same request'),
        note: 'Informational: the worst case for a filter; on SQLite each filter walks its own partial index (schema version 6; 41 ms at 10,000 settled before, when every settled row was read).',
      }),
      figure({
        section: SECTION,
        name: `pending list (GET console/api/pending, ${PENDING} waiting), ${bigName} beside them, p50`,
        value: p50('pending'),
        unit: 'ms',
        baseline: base('pending', `the same request, ${PENDING} waiting`),
        target,
        note: 'Not in the issue\'s list, measured because it reads the same table: the pending questions must be found without reading the settled ones.',
      }),
      figure({
        section: SECTION,
        name: `stats (the charts: GET console/api/stats, 24 hours), ${bigName}, p50 (n=${n('stats')})`,
        value: p50('stats'),
        unit: 'ms',
        baseline: base('stats', 'the same request'),
        note: `Informational: bounded by statsLimits (at most ${5000} settled records and ${50} sessions' event logs per request); this one read ${statsSample.settled} records of ${statsSample.sessions} sessions (complete: ${statsSample.complete}), so it grows up to that cap and no further.`,
      }),
    ];
  } finally {
    for (const host of hosts) await host.close();
    for (const store of stores) await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Question `i`'s outcome: 1 in 20 timed out, 1 in 20 cancelled, the rest answered. */
function outcomeOf(i) {
  if (i % 20 === 7) return RARE_OUTCOME;
  if (i % 20 === 13) return 'cancelled';
  return 'answered';
}

const agentOf = (i) => (i % 2 === 0 ? BUSY_AGENT : `agent-${i % 7}`);
const countOf = (total, predicate) => Array.from({ length: total }, (_, i) => i).filter(predicate).length;

/**
 * A SQLite store holding `count` settled questions, asked one second apart over the last hours
 * (so the 24-hour charts see them), each with its `human_input_requested` event, settled through
 * `claim` like a host would, and the answered/cancelled ones marked resumed (their handler ran).
 */
async function filledStore(file, count) {
  const store = new SqliteQuestionStore(file);
  const questions = seamQuestions();
  const answer = seamAnswer();
  const start = Date.now() - (count + PENDING) * 1000 - 60_000;
  const rpcId = (i) => `bench-console-${i}`;
  for (let from = 0; from < count; from += FILL_CHUNK) {
    const chunk = Array.from({ length: Math.min(FILL_CHUNK, count - from) }, (_, k) => from + k);
    // Saved in order (one group commit keeps call order), so `seq` follows the ask time.
    await Promise.all(
      chunk.map((i) => {
        const sessionId = `session-${i % SESSIONS}`;
        const askedBy = agentOf(i);
        return store.saveWithEvent(
          { rpcId: rpcId(i), sessionId, askedBy, askedAt: new Date(start + i * 1000).toISOString(), questions, mode: 'detached' },
          { type: 'human_input_requested', sessionId, rpcId: rpcId(i), data: { askedBy, mode: 'detached', questions } },
        );
      }),
    );
    await Promise.all(
      chunk.map((i) => {
        const outcome = outcomeOf(i);
        const by = { principalId: `person-${i % 5}`, via: 'websocket' };
        if (outcome === 'answered') return store.claim(rpcId(i), 'answered', answer, { answeredBy: by });
        if (outcome === 'cancelled') return store.claim(rpcId(i), 'cancelled', undefined, { answeredBy: by });
        return store.claim(rpcId(i), outcome);
      }),
    );
    await Promise.all(chunk.filter((i) => outcomeOf(i) !== RARE_OUTCOME).map((i) => store.markResumed(rpcId(i))));
  }
  // Then the questions still waiting, asked after the whole history.
  await Promise.all(
    Array.from({ length: PENDING }, (_, k) => {
      const i = count + k;
      const sessionId = `session-${i % SESSIONS}`;
      return store.saveWithEvent(
        { rpcId: rpcId(i), sessionId, askedBy: agentOf(i), askedAt: new Date(start + i * 1000).toISOString(), questions, mode: 'detached' },
        { type: 'human_input_requested', sessionId, rpcId: rpcId(i), data: { askedBy: agentOf(i), mode: 'detached', questions } },
      );
    }),
  );
  if ((await store.listPending('all')).length !== PENDING) throw new Error(`${file}: expected ${PENDING} questions pending after the fill`);
  return store;
}

/** A host on `store` whose console opens with the operatorToken; no onResume (nothing is left to resume). */
async function consoleHost(store, hosts) {
  const host = await createWebSocketHost({ userQuestions: new UserQuestions(), port: 0, store, operatorToken: OPERATOR_TOKEN });
  hosts.push(host);
  return { api: `${host.url.replace(/^ws:/, 'http:')}/console/api` };
}

/** GET a console API route as the element does; anything but 200 with a JSON body crashes the section. */
async function get(target, route) {
  const response = await fetch(`${target.api}${route}`, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` }, cache: 'no-store' });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${route} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** One history request (query without `?`) whose page must hold exactly `expected` questions. */
function history(target, query, expected) {
  const route = `/history${query === '' ? '' : `?${query}`}`;
  return async () => {
    const body = await get(target, route);
    if (!Array.isArray(body.questions) || (expected > 0 && body.questions.length === 0)) throw new Error(`GET ${route}: an empty page`);
    if (expected === 0 && body.next !== undefined) throw new Error(`GET ${route}: an empty page with a next cursor`);
    if (body.questions.length !== expected) throw new Error(`GET ${route}: ${body.questions.length} questions, expected ${expected}`);
    return body;
  };
}

/** One pending-list request, which must list every waiting question. */
function pending(target) {
  return async () => {
    const body = await get(target, '/pending');
    if (!Array.isArray(body.questions) || body.questions.length !== PENDING) throw new Error(`GET /pending: ${body.questions?.length} questions, expected ${PENDING}`);
    return body;
  };
}

/** One stats request whose sample must have read `expected` settled records. */
function stats(target, expected) {
  return async () => {
    const body = await get(target, '/stats?hours=24');
    if (body.sample?.settled !== expected || !Array.isArray(body.timeToAnswer) || body.timeToAnswer.length === 0) {
      throw new Error(`GET /stats: read ${body.sample?.settled} settled records, expected ${expected}: ${JSON.stringify(body).slice(0, 300)}`);
    }
    if (!body.timeToAnswer.some((bucket) => bucket.count > 0)) throw new Error('GET /stats: no answered question in any bucket');
    return body;
  };
}

/** Follow `next` from the first page (filtered by `query`) until `records` records are behind; the cursor there (URL-encoded). */
async function cursorAt(target, query, records) {
  let cursor;
  let seen = 0;
  while (seen < records) {
    const parts = [query, cursor === undefined ? '' : `cursor=${encodeURIComponent(cursor)}`].filter(Boolean);
    const route = `/history${parts.length === 0 ? '' : `?${parts.join('&')}`}`;
    const page = await get(target, route);
    if (page.questions.length === 0) throw new Error(`GET ${route}: an empty page after ${seen} records`);
    seen += page.questions.length;
    if (page.next === undefined) throw new Error(`GET ${route}: no next page after ${seen} records (wanted ${records})`);
    cursor = page.next;
  }
  return encodeURIComponent(cursor);
}

async function checkDeeper(firstPage, deepPage, deepRecords) {
  const first = (await firstPage()).questions;
  const deep = (await deepPage()).questions;
  if (!(Date.parse(deep[0].askedAt) < Date.parse(first.at(-1).askedAt))) throw new Error('the deep page is not older than the first');
  // Asked one second apart: the deep page starts `deepRecords` seconds before the first page's newest.
  const gap = (Date.parse(first[0].askedAt) - Date.parse(deep[0].askedAt)) / 1000;
  if (gap !== deepRecords) throw new Error(`the deep page starts ${gap} records in, expected ${deepRecords}`);
}

/** Time `count` calls of `request`, one after another, in ms each. */
async function timed(request, count) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const started = now();
    await request();
    out.push(now() - started);
  }
  return out;
}
