import { parseRecommendedLabel } from '@askseam/client';
import { planProblem } from '@askseam/plan-mode';
import { parseAskUserQuestionArgs } from '@askseam/tool-ask-user';
import { describe, expect, it } from 'vitest';
import { scenarioFor, slugOf, type ScenarioChoices } from './scenario.js';

const languages = ['en', 'zh'] as const;
const skippedEverything: ScenarioChoices = { framework: undefined, features: [], name: undefined, hosting: undefined };

describe.each(languages)('the %s scenario', (lang) => {
  const scenario = scenarioFor(lang);

  it('sends only arguments the ask_user_question tool accepts', () => {
    for (const args of [scenario.firstQuestions, scenario.secondQuestions('Astro'), scenario.secondQuestions(undefined), scenario.changeQuestion]) {
      expect(parseAskUserQuestionArgs(args).ok).toBe(true);
    }
  });

  it('marks the first option of each single-select as recommended', () => {
    const singles = [...scenario.firstQuestions.questions, ...scenario.secondQuestions('Astro').questions].filter(
      (question) => question.options !== undefined && question.multi_select !== true,
    );
    expect(singles.length).toBeGreaterThan(0);
    for (const question of singles) expect(parseRecommendedLabel(question.options?.[0]?.label ?? '').recommended).toBe(true);
  });

  it('writes a plan exit_plan_mode accepts, even when every question was skipped', () => {
    expect(planProblem(scenario.plan(skippedEverything))).toBeUndefined();
    expect(planProblem(`${scenario.plan(skippedEverything)}\n\n${scenario.revision(1, 'More tests.')}`)).toBeUndefined();
  });
});

describe('slugOf', () => {
  it('turns a project name into a folder name', () => {
    expect(slugOf('  Pebble Notes 2! ')).toBe('pebble-notes-2');
  });

  it('falls back to my-site when nothing usable is left', () => {
    expect(slugOf('我的网站')).toBe('my-site');
  });
});
