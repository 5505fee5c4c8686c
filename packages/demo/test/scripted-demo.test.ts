import { planReviewOf, type PendingQuestion } from '@askseam/client';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_AGENT_ID, questionIds } from '../src/index.js';
import { Cleanup, connectTo, startTestDemo, toolResults } from './helpers.js';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

/** Answer the two setup batches the way a person might, and return the plan review that follows. */
async function answerSetup(next: () => Promise<PendingQuestion>): Promise<PendingQuestion> {
  const first = await next();
  await first.answer({
    answers: [
      { id: questionIds.framework, selected: ['Astro (Recommended)'] },
      { id: questionIds.features, selected: ['Blog with Markdown posts', 'Dark mode'], custom: 'Search' },
    ],
  });
  const second = await next();
  await second.answer({
    answers: [
      { id: questionIds.name, selected: [], custom: 'Pebble Notes' },
      { id: questionIds.hosting, selected: [] },
    ],
  });
  return next();
}

function planIn(question: PendingQuestion): string {
  const review = planReviewOf(question.questions);
  if (review === undefined) throw new Error(`Expected a plan review, got questions ${question.questions.map((q) => q.id).join(', ')}`);
  return review.plan;
}

describe('the scripted demo agent', () => {
  it('prints the page URL with its token before the agent asks anything', async () => {
    const { demo, lines } = await startTestDemo(cleanup);
    const { nextQuestion: next } = await connectTo(cleanup, demo);
    await next();

    expect(demo.url).toBe(`http://127.0.0.1:${demo.port}/?token=${demo.token}`);
    const urlLine = lines.findIndex((line) => line.includes(demo.url));
    const firstCall = lines.findIndex((line) => line.startsWith('[tool call]'));
    expect(urlLine).toBeGreaterThanOrEqual(0);
    expect(urlLine).toBeLessThan(firstCall);
    // The console's URL sits next to the page's, with a token of its own.
    expect(demo.consoleUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${demo.port}/askseam/console\\?token=[\\w-]+$`));
    expect(demo.consoleUrl).not.toContain(demo.token);
    const consoleLine = lines.findIndex((line) => line.includes(demo.consoleUrl));
    expect(consoleLine).toBeGreaterThan(urlLine);
    expect(consoleLine).toBeLessThan(firstCall);
  });

  it('asks a recommended single-select and a multi-select first, then a free-text question', async () => {
    const { demo } = await startTestDemo(cleanup);
    const { nextQuestion: next } = await connectTo(cleanup, demo);

    const first = await next();
    expect(first.sessionId).toBe(DEMO_AGENT_ID);
    const [framework, features] = first.questions;
    expect(framework?.options?.[0]?.label).toBe('Astro (Recommended)');
    expect(framework?.options?.every((option) => option.description !== undefined)).toBe(true);
    expect(features?.multiSelect).toBe(true);

    await first.answer({ answers: [{ id: questionIds.framework, selected: ['SvelteKit'] }, { id: questionIds.features, selected: [] }] });
    const second = await next();
    const name = second.questions.find((question) => question.id === questionIds.name);
    expect(name?.options).toBeUndefined();
    expect(second.questions.find((question) => question.id === questionIds.hosting)?.question).toContain('SvelteKit');
  });

  it('prints exactly the answer text the model receives from ask_user_question', async () => {
    const { demo, lines } = await startTestDemo(cleanup);
    const { nextQuestion: next } = await connectTo(cleanup, demo);
    await answerSetup(next);

    expect(toolResults(lines, 'ask_user_question')).toEqual([
      '{"answers":[{"id":"framework","selected":["Astro (Recommended)"]},{"id":"features","selected":["Blog with Markdown posts","Dark mode"],"custom":"Search"}]}',
      '{"answers":[{"id":"project-name","selected":[],"custom":"Pebble Notes"},{"id":"hosting","selected":[]}]}',
    ]);
  });

  it('proposes a Markdown plan built from the answers through exit_plan_mode', async () => {
    const { demo } = await startTestDemo(cleanup);
    const { nextQuestion: next } = await connectTo(cleanup, demo);
    const plan = planIn(await answerSetup(next));

    expect(plan.startsWith('# Plan: set up "Pebble Notes"')).toBe(true);
    expect(plan).toContain('**Framework:** Astro\n');
    expect(plan).toContain('`pebble-notes`');
    expect(plan).toContain('**Features:** Blog with Markdown posts, Dark mode, Search');
    expect(plan).toContain('**Hosting:** not chosen yet');
  });

  it('ends approved, with plan mode off, when the user approves the plan', async () => {
    const { demo, lines } = await startTestDemo(cleanup);
    const { nextQuestion: next } = await connectTo(cleanup, demo);
    const review = await answerSetup(next);
    await review.answer({ answers: [{ id: 'plan-review', selected: ['Approve'] }] });

    const outcome = await demo.done;
    expect(outcome).toEqual({ status: 'approved', plan: planIn(review) });
    expect(demo.runtime.planMode.isActive(DEMO_AGENT_ID)).toBe(false);
    expect(toolResults(lines, 'exit_plan_mode')).toHaveLength(1);
    expect(toolResults(lines, 'exit_plan_mode')[0]).toMatch(/approved/);
    expect(lines.at(-1)).toMatch(/^\[done\] The plan was approved/);
  });

  it('revises the plan with the feedback and asks for review again when the user keeps planning', async () => {
    const { demo, lines } = await startTestDemo(cleanup);
    const { nextQuestion: next } = await connectTo(cleanup, demo);
    const review = await answerSetup(next);
    await review.answer({ answers: [{ id: 'plan-review', selected: [], custom: 'Add a newsletter signup.' }] });

    const again = await next();
    const revised = planIn(again);
    expect(revised.startsWith(planIn(review))).toBe(true);
    expect(revised).toContain('## Changes after review 1\n\n> Add a newsletter signup.');
    expect(toolResults(lines, 'exit_plan_mode')[0]).toContain('Add a newsletter signup.');

    await again.answer({ answers: [{ id: 'plan-review', selected: ['Approve'] }] });
    expect(await demo.done).toEqual({ status: 'approved', plan: revised });
  });

  it('asks what to change when the user keeps planning without saying what', async () => {
    const { demo } = await startTestDemo(cleanup);
    const { nextQuestion: next } = await connectTo(cleanup, demo);
    const review = await answerSetup(next);
    await review.answer({ answers: [{ id: 'plan-review', selected: ['Keep planning'] }] });

    const change = await next();
    expect(change.questions.map((question) => question.id)).toEqual([questionIds.change]);
    await change.answer({ answers: [{ id: questionIds.change, selected: [], custom: 'Use pnpm.' }] });
    expect(planIn(await next())).toContain('> Use pnpm.');
  });

  it('stops as dismissed when the user dismisses the questions', async () => {
    const { demo, lines } = await startTestDemo(cleanup);
    const { nextQuestion: next } = await connectTo(cleanup, demo);
    await (await next()).cancel();

    expect(await demo.done).toEqual({ status: 'dismissed' });
    expect(toolResults(lines, 'ask_user_question')[0]).toMatch(/^Error: /);
    expect(lines.some((line) => line.startsWith('[tool call] exit_plan_mode'))).toBe(false);
  });

  it('stops as dismissed when the user dismisses the plan review', async () => {
    const { demo, lines } = await startTestDemo(cleanup);
    const { nextQuestion: next } = await connectTo(cleanup, demo);
    await (await answerSetup(next)).cancel();

    expect(await demo.done).toEqual({ status: 'dismissed' });
    expect(toolResults(lines, 'exit_plan_mode')[0]).toMatch(/dismissed the plan review/);
    expect(demo.runtime.planMode.isActive(DEMO_AGENT_ID)).toBe(true);
  });

  it('withdraws the waiting question and ends aborted when the demo is closed', async () => {
    const { demo, lines } = await startTestDemo(cleanup);
    const { nextQuestion: next } = await connectTo(cleanup, demo);
    await next();

    await demo.close();
    expect(await demo.done).toEqual({ status: 'aborted' });
    expect(toolResults(lines, 'ask_user_question')).toEqual([expect.stringMatching(/^Error: .*aborted/)]);
  });

  it('asks in Chinese, with the full-width recommended marker, when the language is zh', async () => {
    const { demo } = await startTestDemo(cleanup, { lang: 'zh' });
    const { nextQuestion: next } = await connectTo(cleanup, demo);
    const first = await next();
    expect(first.questions[0]?.options?.[0]?.label).toBe('Astro（推荐）');

    await first.answer({ answers: [{ id: questionIds.framework, selected: ['Astro（推荐）'] }, { id: questionIds.features, selected: [] }] });
    const second = await next();
    await second.answer({ answers: [{ id: questionIds.name, selected: [] }, { id: questionIds.hosting, selected: ['静态托管（推荐）'] }] });
    const plan = planIn(await next());
    expect(plan.startsWith('# 计划')).toBe(true);
    expect(plan).toContain('**框架：** Astro\n');
    expect(plan).toContain('**部署：** 静态托管\n');
  });
});
