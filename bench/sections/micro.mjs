// Section 4: the validators on one core. matchesQuestions for the three-question batch, and
// parseClientFrame for a typical respond frame, each beside a baseline run in alternating blocks.
import { askUserQuestionAnswerSchema, matchesQuestions } from '@askseam/user-questions';
import { parseClientFrame } from '@askseam/protocol';
import { figure } from '../lib/figure.mjs';
import { seamAnswer, seamQuestions, respondFrameText } from '../lib/fixtures.mjs';
import { burstRates, median } from '../lib/stats.mjs';

const SECTION = 'validators';

/** Median calls/s of each named function, measured in alternating blocks. */
function sideBySide(subjects, { blockMs, rounds }) {
  const rates = Object.fromEntries(Object.keys(subjects).map((name) => [name, []]));
  // Warm-up: let the optimiser settle on every subject before any block counts.
  for (const fn of Object.values(subjects)) burstRates(fn, { ms: blockMs });
  for (let round = 0; round < rounds; round++) {
    const names = Object.keys(subjects);
    if (round % 2 === 1) names.reverse();
    for (const name of names) rates[name].push(...burstRates(subjects[name], { ms: blockMs }));
  }
  return Object.fromEntries(Object.entries(rates).map(([name, list]) => [name, median(list)]));
}

export async function run(config) {
  const { blockMs, rounds } = config.micro;
  const questions = seamQuestions();
  const answer = seamAnswer();
  let sink = 0; // keeps results observable so no call is optimised away

  const matchRates = sideBySide(
    {
      matches: () => { if (matchesQuestions(questions, answer)) sink++; },
      zodShape: () => { if (askUserQuestionAnswerSchema.safeParse(answer).success) sink++; },
    },
    { blockMs, rounds },
  );

  const frameText = respondFrameText();
  const frameBytes = Buffer.from(frameText);
  const parseRates = sideBySide(
    {
      parseText: () => { if (parseClientFrame(frameText).ok) sink++; },
      jsonText: () => { if (JSON.parse(frameText).type) sink++; },
      parseBytes: () => { if (parseClientFrame(frameBytes).ok) sink++; },
      jsonBytes: () => { if (JSON.parse(frameBytes.toString('utf8')).type) sink++; },
    },
    { blockMs, rounds },
  );
  if (sink === 0) throw new Error('No call succeeded: the fixtures no longer fit the validators.');

  return [
    figure({
      section: SECTION,
      name: 'matchesQuestions, 3-question batch',
      value: matchRates.matches,
      unit: 'checks/s',
      baseline: { name: 'zod safeParse of the answer shape only', value: matchRates.zodShape },
      target: { on: 'value', op: '>=', value: 1_000_000, text: '>= 1,000,000 checks/s' },
    }),
    figure({
      section: SECTION,
      name: `parseClientFrame, respond frame (${frameText.length} B string)`,
      value: parseRates.parseText,
      unit: 'frames/s',
      baseline: { name: 'JSON.parse of the same text', value: parseRates.jsonText },
      note: 'No target set; the ratio is what schema validation adds to JSON.parse.',
    }),
    figure({
      section: SECTION,
      name: `parseClientFrame, respond frame (${frameBytes.length} B Buffer, as ws delivers it)`,
      value: parseRates.parseBytes,
      unit: 'frames/s',
      baseline: { name: 'Buffer toString + JSON.parse', value: parseRates.jsonBytes },
    }),
  ];
}
