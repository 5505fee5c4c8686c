// Build time only: turns the zod schemas into plain JSON plans that plain-parse.ts checks without zod.
// The element's browser bundle (packages/web/scripts/bundle.mjs) ships these plans instead of zod,
// which was almost half its weight. Every plan is derived from the schema itself at build time, so
// the browser can never drift from the host: a schema feature this file does not know (a regex, a
// refine, a custom message, a transform) throws here and fails the build instead of being skipped.
import type * as z from 'zod';

/** How an object key may be absent, copied from zod (`optin` / `optout`) so absence is judged alike. */
export interface PlainKeyOptionality {
  /** zod's `optin`: the schema accepts an absent key as input. */
  optIn?: 'optional' | 'defaulted';
  /** zod's `optout`: the schema's output may be absent. */
  optOut?: 'optional';
}

export type PlainNumberCheck =
  /** zod's safeint format: a whole number within ±(2^53 − 1). */
  | { check: 'safeint' }
  | { check: 'greater_than'; value: number; inclusive: boolean };

export type PlainSchema = PlainKeyOptionality &
  (
    | { type: 'string' }
    | { type: 'boolean' }
    | { type: 'unknown' }
    | { type: 'number'; checks: PlainNumberCheck[] }
    /** `z.literal` and `z.enum`: the allowed primitive values, in the schema's order. */
    | { type: 'literal' | 'enum'; values: (string | number | boolean | null)[] }
    | { type: 'array'; element: PlainSchema }
    /** Keys in the schema's order; `strict` refuses keys not in `shape`, otherwise they are dropped. */
    | { type: 'object'; shape: Record<string, PlainSchema>; strict: boolean }
    | { type: 'optional'; inner: PlainSchema }
    /** `.catch(value)`: any failure of `inner` reads as `value` (a constant, computed once at build time). */
    | { type: 'catch'; inner: PlainSchema; value: unknown }
    /** `z.discriminatedUnion(key, options)`: each option with the discriminator values that pick it. */
    | { type: 'discriminated'; key: string; options: { values: (string | number | boolean | null)[]; schema: PlainSchema }[] }
  );

/** Thrown at build time for a schema that plain-parse.ts could not check exactly as zod does. */
export class PlainSchemaError extends Error {
  constructor(where: string, what: string) {
    super(`Cannot describe the schema at ${where || '(root)'} for the browser validator: ${what}. Teach plain-schema.ts and plain-parse.ts this feature, or keep the browser on zod.`);
    this.name = 'PlainSchemaError';
  }
}

type Internals = {
  def: Record<string, unknown> & { type: string; checks?: z.core.$ZodCheck[] };
  optin?: 'optional' | 'defaulted';
  optout?: 'optional';
  values?: Set<unknown>;
};

/** The plan of `schema`, or a PlainSchemaError naming the first feature the plain validator lacks. */
export function describeSchema(schema: z.core.$ZodType, where = ''): PlainSchema {
  const zod = (schema as unknown as { _zod: Internals })._zod;
  const def = zod.def;
  if (def.error !== undefined) throw new PlainSchemaError(where, 'a custom error message');
  const optionality: PlainKeyOptionality = {};
  if (zod.optin !== undefined) optionality.optIn = zod.optin;
  if (zod.optout !== undefined) optionality.optOut = zod.optout;
  // A format schema (z.uuid(), z.email(), z.iso.datetime(), z.int()) is its own check: it has a
  // format and a check in its def and nothing in def.checks. Only numbers have checks the plain
  // validator runs (numberChecks); any other type with one would be accepted unchecked.
  if (def.type !== 'number' && (def.format !== undefined || def.check !== undefined)) {
    throw new PlainSchemaError(where, def.format !== undefined ? `the ${def.type} format "${String(def.format)}"` : `a check on a ${def.type}`);
  }
  const plan = describeDef(schema, zod, where);
  if (def.type !== 'number' && def.checks !== undefined && def.checks.length > 0) {
    throw new PlainSchemaError(where, `a check on a ${def.type}`);
  }
  return { ...optionality, ...plan } as PlainSchema;
}

function describeDef(schema: z.core.$ZodType, zod: Internals, where: string): PlainSchema {
  const def = zod.def;
  switch (def.type) {
    case 'string':
    case 'boolean':
    case 'unknown':
      if (def.coerce === true) throw new PlainSchemaError(where, 'coercion');
      return { type: def.type };
    case 'number':
      if (def.coerce === true) throw new PlainSchemaError(where, 'coercion');
      return { type: 'number', checks: numberChecks(schema, def, where) };
    case 'literal':
    case 'enum':
      return { type: def.type, values: primitiveValues(zod.values, where) };
    case 'array':
      if (def.checks !== undefined && def.checks.length > 0) throw new PlainSchemaError(where, 'a length check on an array');
      return { type: 'array', element: describeSchema(def.element as z.core.$ZodType, `${where}[]`) };
    case 'object':
      return describeObject(def, where);
    case 'optional':
      return { type: 'optional', inner: describeSchema(def.innerType as z.core.$ZodType, where) };
    case 'catch':
      return { type: 'catch', inner: describeSchema(def.innerType as z.core.$ZodType, where), value: catchValue(def, where) };
    case 'union':
      return describeDiscriminated(def, where);
    default:
      throw new PlainSchemaError(where, `the schema type "${def.type}"`);
  }
}

function numberChecks(schema: z.core.$ZodType, def: Internals['def'], where: string): PlainNumberCheck[] {
  // zod runs a format schema's own check (z.int()) before the checks added to it (.positive()).
  const checks: { _zod: { def: Record<string, unknown> } }[] = [];
  if (def.check !== undefined) checks.push(schema as unknown as { _zod: { def: Record<string, unknown> } });
  for (const check of def.checks ?? []) checks.push(check as unknown as { _zod: { def: Record<string, unknown> } });
  return checks.map(({ _zod: { def: check } }) => {
    if (check.error !== undefined || check.when !== undefined) throw new PlainSchemaError(where, 'a number check with its own message or condition');
    if (check.check === 'number_format' && check.format === 'safeint') return { check: 'safeint' };
    if (check.check === 'greater_than' && typeof check.value === 'number' && typeof check.inclusive === 'boolean') {
      return { check: 'greater_than', value: check.value, inclusive: check.inclusive };
    }
    throw new PlainSchemaError(where, `the number check "${String(check.check)}${check.format ? ` ${String(check.format)}` : ''}"`);
  });
}

function describeObject(def: Internals['def'], where: string): PlainSchema {
  const catchall = def.catchall as z.core.$ZodType | undefined;
  const catchallType = catchall === undefined ? undefined : (catchall as unknown as { _zod: Internals })._zod.def.type;
  if (catchallType !== undefined && catchallType !== 'never') throw new PlainSchemaError(where, `an object whose other keys are ${catchallType}`);
  const shape: Record<string, PlainSchema> = {};
  for (const [key, value] of Object.entries(def.shape as Record<string, z.core.$ZodType>)) {
    if (key === '__proto__') throw new PlainSchemaError(where, 'a key named __proto__');
    shape[key] = describeSchema(value, where ? `${where}.${key}` : key);
  }
  return { type: 'object', shape, strict: catchallType === 'never' };
}

function describeDiscriminated(def: Internals['def'], where: string): PlainSchema {
  const key = def.discriminator;
  if (typeof key !== 'string' || def.unionFallback === true) throw new PlainSchemaError(where, 'a union that is not a plain discriminated union');
  const options = (def.options as z.core.$ZodType[]).map((option, index) => {
    const plan = describeSchema(option, `${where}<${index}>`);
    const tag = plan.type === 'object' ? plan.shape[key] : undefined;
    if (tag === undefined || (tag.type !== 'literal' && tag.type !== 'enum') || tag.optIn !== undefined) {
      throw new PlainSchemaError(where, `option ${index} of the union has no required literal "${key}"`);
    }
    return { values: tag.values, schema: plan };
  });
  return { type: 'discriminated', key, options };
}

function primitiveValues(values: Set<unknown> | undefined, where: string): (string | number | boolean | null)[] {
  const list = [...(values ?? [])];
  for (const value of list) {
    const kind = typeof value;
    if (value !== null && kind !== 'string' && kind !== 'boolean' && !(kind === 'number' && Number.isFinite(value))) {
      throw new PlainSchemaError(where, `a literal value of type ${kind}`);
    }
  }
  return list as (string | number | boolean | null)[];
}

function catchValue(def: Internals['def'], where: string): unknown {
  // zod calls catchValue with the failure; a constant fallback ignores it. One that reads it cannot
  // be computed at build time, and would show here as a throw or a value that is not plain JSON.
  const fallback = (def.catchValue as (context: unknown) => unknown)({ error: { issues: [] }, input: undefined, value: undefined, issues: [] });
  if (fallback === undefined || JSON.stringify(fallback) === undefined) throw new PlainSchemaError(where, 'a catch value that is not plain JSON');
  return JSON.parse(JSON.stringify(fallback));
}
