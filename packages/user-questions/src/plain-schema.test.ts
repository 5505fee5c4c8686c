import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { plainSafeParse } from './plain-parse.js';
import { describeSchema, PlainSchemaError } from './plain-schema.js';
import { askUserQuestionAnswerSchema, askUserQuestionsSchema } from './schemas.js';

describe('describeSchema', () => {
  it('describes every schema the browser carries (the build would fail otherwise)', () => {
    expect(() => describeSchema(askUserQuestionsSchema)).not.toThrow();
    expect(describeSchema(askUserQuestionAnswerSchema)).toMatchObject({ type: 'object', strict: true, shape: { answers: { type: 'array' } } });
  });

  // A feature the plain validator does not check must stop the build, never be skipped: a skipped
  // check would make the browser accept what the host refuses.
  it.each([
    ['a length bound', z.string().min(1)],
    ['a pattern', z.object({ id: z.string().regex(/^a/) })],
    ['a refinement', z.object({ id: z.string() }).refine(() => true)],
    ['a transform', z.string().transform((text) => text.trim())],
    ['a custom message', z.string({ error: 'give text' })],
    ['an array bound', z.array(z.string()).max(3)],
    ['a plain union', z.union([z.string(), z.number()])],
    ['a less-than check', z.number().lt(3)],
    ['an object with typed extra keys', z.object({}).catchall(z.string())],
    ['a coercion', z.coerce.number()],
    // Top-level string formats carry their check in the schema itself, not in its checks.
    ['a top-level uuid', z.uuid()],
    ['a top-level e-mail', z.object({ contact: z.email() })],
    ['a top-level ISO date-time', z.iso.datetime()],
    ['a top-level URL', z.url()],
    ['a top-level uuid inside an array', z.array(z.uuid())],
    ['a top-level uuid that is optional', z.object({ id: z.uuid().optional() })],
  ])('refuses %s with a PlainSchemaError that names where', (_feature, schema) => {
    expect(() => describeSchema(schema as z.core.$ZodType, 'questions')).toThrow(PlainSchemaError);
  });

  it('names the format it cannot check and where it is', () => {
    expect(() => describeSchema(z.object({ requestId: z.uuid() }))).toThrow(/at requestId for the browser validator: the string format "uuid"/);
  });

  it('names the path of the unsupported part', () => {
    expect(() => describeSchema(z.object({ items: z.array(z.object({ id: z.string().email() })) }))).toThrow(/items\[\]\.id/);
  });
});

describe('plainSafeParse', () => {
  // The full equivalence is packages/web/test/browser-validators.property.test.ts; these are the
  // rules that are easiest to get wrong, checked against zod directly.
  const cases: [string, z.core.$ZodType, unknown][] = [
    ['a required unknown key that is absent', z.object({ result: z.unknown() }), {}],
    ['an optional key that holds undefined', z.object({ name: z.string().optional() }), { name: undefined }],
    ['an unsafe integer', z.int(), 2 ** 60],
    ['a bad enum under catch', z.object({ urgency: z.enum(['low', 'high']).catch('low').optional() }), { urgency: 'urgent' }],
    ['an unknown discriminator', z.discriminatedUnion('ok', [z.object({ ok: z.literal(true) }), z.object({ ok: z.literal(false) })]), { ok: 'yes' }],
    ['two unknown keys of a strict object', z.strictObject({ id: z.string() }), { id: 'a', b: 1, c: 2 }],
    ['a nested failure before a later key', z.object({ a: z.object({ b: z.string() }), c: z.string() }), { a: {}, c: 1 }],
  ];
  it.each(cases)('gives zod’s result for %s', (_name, schema, value) => {
    const zod = (schema as z.ZodType).safeParse(value);
    const plain = plainSafeParse(describeSchema(schema))(value);
    if (zod.success) expect(plain).toStrictEqual({ success: true, data: zod.data });
    else expect(plain).toStrictEqual({ success: false, error: { issues: [{ path: zod.error.issues[0]!.path, message: zod.error.issues[0]!.message }] } });
  });
});
