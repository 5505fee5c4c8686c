import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerMismatch, matchesQuestions, questionBatchProblem } from '@askseam/user-questions';
import { casesArb, labelReplyArb, replyArb } from '../test/arbitraries.js';
import { textMessages } from './messages.js';
import { parseTextReply } from './parse.js';
import { renderText } from './render.js';
import { replyText } from './reply.js';
import { readValue } from './values.js';

describe('text round trip', () => {
  it('generates well-formed batches and answers that fit them', () => {
    fc.assert(
      fc.property(casesArb, ([questions, answer]) => {
        expect(questionBatchProblem(questions)).toBeUndefined();
        expect(answerMismatch(questions, answer)).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('reads back every fitting answer written as a reply, exactly', () => {
    fc.assert(
      fc.property(casesArb, ([questions, answer]) => {
        const reply = replyText(questions, answer);
        expect(parseTextReply(questions, reply), reply).toEqual({ ok: true, answer });
      }),
      { numRuns: 1_000 },
    );
  });

  it('reads back every multi-select answer written by label, labels with commas in them included', () => {
    fc.assert(
      fc.property(labelReplyArb, ({ question, reply, answer }) => {
        expect(parseTextReply([question], reply), reply).toEqual({ ok: true, answer: { answers: [answer] } });
      }),
      { numRuns: 1_000 },
    );
  });

  it('renders every batch within the default budget, and the rendering does not change the batch', () => {
    fc.assert(
      fc.property(casesArb, ([questions]) => {
        const before = structuredClone(questions);
        expect(renderText(questions).length).toBeLessThanOrEqual(4000);
        expect(questions).toEqual(before);
      }),
      { numRuns: 200 },
    );
  });
});

describe('any answer the reader returns fits', () => {
  it('fits the questions, whatever a person replies', () => {
    fc.assert(
      fc.property(casesArb, replyArb, ([questions], reply) => {
        const result = parseTextReply(questions, reply);
        if (result.ok) expect(matchesQuestions(questions, result.answer), reply).toBe(true);
        else for (const item of result.partial) expect(answerMismatch([questions.find((q) => q.id === item.id)!], { answers: [item] }), reply).toBeUndefined();
      }),
      { numRuns: 2_000 },
    );
  });

  it('fits each question on its own, before the seam is consulted (the last check in parseTextReply is never what saves it)', () => {
    fc.assert(
      fc.property(casesArb, replyArb, ([questions], reply) => {
        for (const question of questions) {
          const reading = readValue(question, reply, textMessages.en);
          if (reading.ok) expect(answerMismatch([question], { answers: [reading.item] }), reply).toBeUndefined();
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('understands a good share of the generated replies (the property is not vacuous)', () => {
    const results = fc.sample(fc.tuple(casesArb, replyArb), { numRuns: 1_000, seed: 3 }).map(([[questions], reply]) => parseTextReply(questions, reply));
    expect(results.filter((result) => result.ok).length).toBeGreaterThan(50);
    expect(results.filter((result) => !result.ok).length).toBeGreaterThan(50);
  });
});
