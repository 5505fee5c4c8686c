import { describe, expect, it } from 'vitest';
import { objectSchemas, propertyNames } from '../test/schema-rules.js';
import { askUserQuestionToolDescription } from './description.js';
import { askUserQuestionJsonSchema, askUserQuestionStrictJsonSchema } from './json-schema.js';
import { askUserQuestionArgsSchema, askUserQuestionStrictArgsSchema } from './schema.js';

type Node = Record<string, unknown> & { properties: Record<string, Node>; required?: string[]; items: Node };
const root = askUserQuestionJsonSchema as Node;
const questionSchema = root.properties.questions!.items;
const optionSchema = questionSchema.properties.options!.items;

describe('askUserQuestionJsonSchema', () => {
  it('takes { questions: [...] } and nothing else', () => {
    expect(root.type).toBe('object');
    expect(Object.keys(root.properties)).toEqual(['questions']);
    expect(root.required).toEqual(['questions']);
    expect(root.properties.questions!.type).toBe('array');
  });

  it('describes a question as id and question, with header, options and multi_select optional', () => {
    expect(Object.keys(questionSchema.properties)).toEqual(['id', 'question', 'header', 'options', 'multi_select']);
    expect(questionSchema.required).toEqual(['id', 'question']);
    expect(questionSchema.properties.multi_select!.type).toBe('boolean');
  });

  it('describes an option as a label with an optional description', () => {
    expect(Object.keys(optionSchema.properties)).toEqual(['label', 'description']);
    expect(optionSchema.required).toEqual(['label']);
  });

  it('offers the model no detail, intent, value, recommended or camelCase multiSelect field', () => {
    const names = [...propertyNames(askUserQuestionJsonSchema as Node), ...propertyNames(askUserQuestionStrictJsonSchema as Node)];
    for (const forbidden of ['detail', 'intent', 'value', 'recommended', 'multiSelect']) expect(names).not.toContain(forbidden);
  });

  it('closes every object with additionalProperties: false', () => {
    for (const { schema } of objectSchemas(root)) expect(schema.additionalProperties).toBe(false);
  });

  it('teaches every field with a description', () => {
    const undescribed = objectSchemas(root).flatMap(({ path, schema }) =>
      Object.entries(schema.properties as Record<string, Node>)
        .filter(([, property]) => typeof property.description !== 'string' || property.description.length < 20)
        .map(([key]) => `${path}/${key}`),
    );
    expect(undescribed).toEqual([]);
  });

  it('teaches the stable id, the short header chip, the one-sentence trade-off and the "(Recommended)" convention', () => {
    expect(questionSchema.properties.id!.description).toMatch(/stable.*comes back/s);
    expect(questionSchema.properties.header!.description).toMatch(/short chip.*few words/s);
    expect(optionSchema.properties.description!.description).toMatch(/One sentence on the trade-off/);
    expect(optionSchema.properties.label!.description).toContain('" (Recommended)"');
    expect(questionSchema.properties.options!.description).toMatch(/put it first.*\(Recommended\)/s);
  });

  it('carries no $schema dialect marker and no length constraints', () => {
    const text = JSON.stringify(askUserQuestionJsonSchema);
    for (const keyword of ['$schema', 'minLength', 'minItems', 'maxLength', 'pattern']) expect(text).not.toContain(`"${keyword}"`);
  });

});

describe('askUserQuestionStrictJsonSchema', () => {
  const strictRoot = askUserQuestionStrictJsonSchema as Node;
  const strictQuestion = strictRoot.properties.questions!.items;

  it('has the same fields as the plain schema', () => {
    expect(propertyNames(strictRoot)).toEqual(propertyNames(root));
  });

  it('requires every field and types the optional ones as nullable', () => {
    for (const { schema } of objectSchemas(strictRoot)) {
      expect(schema.required).toEqual(Object.keys(schema.properties as object));
    }
    expect(strictQuestion.properties.header!.type).toEqual(['string', 'null']);
    expect(strictQuestion.properties.multi_select!.type).toEqual(['boolean', 'null']);
    expect(strictQuestion.properties.options!.anyOf).toContainEqual({ type: 'null' });
  });

  it('tells the model to send null for a field it does not need', () => {
    expect(strictQuestion.properties.header!.description).toContain('Use null when not needed.');
  });
});

describe('askUserQuestionArgsSchema', () => {
  it('accepts the smallest call: one question with an id', () => {
    expect(askUserQuestionArgsSchema.safeParse({ questions: [{ id: 'a', question: 'Why?' }] }).success).toBe(true);
  });

  it('refuses unknown keys at every level instead of dropping them', () => {
    expect(askUserQuestionArgsSchema.safeParse({ questions: [], extra: 1 }).success).toBe(false);
    expect(askUserQuestionArgsSchema.safeParse({ questions: [{ id: 'a', question: 'q', detail: 'd' }] }).success).toBe(false);
    expect(askUserQuestionArgsSchema.safeParse({ questions: [{ id: 'a', question: 'q', options: [{ label: 'x', recommended: true }] }] }).success).toBe(false);
  });

  it('has a strict twin that accepts nulls for the optional fields', () => {
    const call = { questions: [{ id: 'a', question: 'q', header: null, options: [{ label: 'x', description: null }], multi_select: null }] };
    expect(askUserQuestionStrictArgsSchema.safeParse(call).success).toBe(true);
    expect(askUserQuestionArgsSchema.safeParse(call).success).toBe(false);
  });
});

describe('askUserQuestionToolDescription', () => {
  it('teaches when to ask, and when not to', () => {
    expect(askUserQuestionToolDescription).toMatch(/only when a choice, a confirmation or a missing fact blocks your progress/);
    expect(askUserQuestionToolDescription).toMatch(/Do not ask about anything you can find out yourself/);
    expect(askUserQuestionToolDescription).toMatch(/related questions into one call/);
  });

  it('teaches the stable-id and "(Recommended)" conventions', () => {
    expect(askUserQuestionToolDescription).toMatch(/short, stable id/);
    expect(askUserQuestionToolDescription).toMatch(/put it first and append " \(Recommended\)" to its label/);
  });

  it('tells the model the user may skip a question or type their own answer', () => {
    expect(askUserQuestionToolDescription).toMatch(/may skip a question/);
    expect(askUserQuestionToolDescription).toMatch(/type their own answer.*"custom"/s);
  });
});
