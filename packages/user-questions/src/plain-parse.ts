// The browser's validator: checks a value against a plan from plain-schema.ts, with no zod. It gives
// what the zod schema's safeParse gives for the same value (the same data when it accepts, the same
// first issue — path and English message — when it refuses), so the bundle's `compiledSafeParse`
// can be this function (packages/web/scripts/browser-validators.mjs swaps it in). Only the first
// issue is reported: every caller reads `issues[0]`, and stopping there keeps this small.
// packages/web/test/browser-validators.property.test.ts proves the equivalence on generated input.
import type { PlainNumberCheck, PlainSchema } from './plain-schema.js';

export interface PlainIssue {
  path: PropertyKey[];
  message: string;
}

export type PlainSafeParseResult<Output> = { success: true; data: Output } | { success: false; error: { issues: [PlainIssue] } };

/** A `safeParse` for `plan`: the same call shape as compiled.ts's `compiledSafeParse(schema)`. */
export function plainSafeParse<Output = unknown>(plan: PlainSchema): (value: unknown) => PlainSafeParseResult<Output> {
  return (value) => {
    const result = run(plan, value);
    return result instanceof Failure ? { success: false, error: { issues: [{ path: result.path, message: result.message }] } } : { success: true, data: result as Output };
  };
}

/**
 * A refusal on its way up. Its path is built only on failure, key by key as it leaves each object
 * or array, so a value that passes allocates nothing but its output.
 */
class Failure {
  readonly path: PropertyKey[] = [];
  constructor(readonly message: string) {}
  under(key: PropertyKey): this {
    this.path.unshift(key);
    return this;
  }
}

// Returns the output value, or a Failure (never a value a caller passed in: Failure is private).
function run(plan: PlainSchema, value: unknown): unknown {
  switch (plan.type) {
    case 'string':
    case 'boolean':
      return typeof value === plan.type ? value : invalidType(plan.type, value);
    case 'unknown':
      return value;
    case 'number':
      return runNumber(plan.checks, value);
    case 'literal':
    case 'enum':
      return plan.values.includes(value as string) ? value : new Failure(invalidValue(plan.values));
    case 'array': {
      if (!Array.isArray(value)) return invalidType('array', value);
      const output: unknown[] = [];
      for (let index = 0; index < value.length; index++) {
        const item = run(plan.element, value[index]);
        if (item instanceof Failure) return item.under(index);
        output.push(item);
      }
      return output;
    }
    case 'object':
      return isObject(value) ? runObject(plan.shape, plan.strict, value) : invalidType('object', value);
    case 'optional':
      return value === undefined ? value : run(plan.inner, value);
    case 'catch': {
      const inner = run(plan.inner, value);
      return inner instanceof Failure ? plan.value : inner;
    }
    case 'discriminated': {
      if (!isObject(value)) return invalidType('object', value);
      const tag = value[plan.key];
      const option = plan.options.find((candidate) => candidate.values.includes(tag as string));
      if (option) return run(option.schema, value);
      const expected = plan.options.flatMap((candidate) => candidate.values.map((each) => `'${String(each)}'`));
      return new Failure(`Invalid discriminator value. Expected ${expected.join(' | ')}`).under(plan.key);
    }
  }
}

function runNumber(checks: readonly PlainNumberCheck[], value: unknown): unknown {
  if (typeof value !== 'number' || !Number.isFinite(value)) return invalidType('number', value);
  for (const check of checks) {
    if (check.check === 'safeint') {
      if (!Number.isInteger(value)) return invalidType('int', value);
      if (!Number.isSafeInteger(value)) {
        return new Failure(value > 0 ? `Too big: expected int to be <=${Number.MAX_SAFE_INTEGER}` : `Too small: expected int to be >=${Number.MIN_SAFE_INTEGER}`);
      }
    } else if (check.inclusive ? value < check.value : value <= check.value) {
      return new Failure(`Too small: expected number to be ${check.inclusive ? '>=' : '>'}${check.value}`);
    }
  }
  return value;
}

// zod's object rules (handlePropertyResult): keys in the schema's order, an absent optional key
// stays absent, an absent required key is refused even when its schema accepts undefined, and a
// strict object refuses other keys only after every known key passed.
function runObject(shape: Record<string, PlainSchema>, strict: boolean, value: Record<string, unknown>): unknown {
  const output: Record<string, unknown> = {};
  for (const key in shape) {
    const plan = shape[key]!;
    const present = key in value;
    if (!present && plan.optIn === 'optional' && plan.optOut === 'optional') continue;
    const result = run(plan, value[key]);
    if (result instanceof Failure) {
      if (plan.optIn !== undefined && plan.optOut === 'optional' && !present) continue;
      return result.under(key);
    }
    if (!present && plan.optIn === undefined) return new Failure('Invalid input: expected nonoptional, received undefined').under(key);
    if (result !== undefined || present || (plan.optIn === 'defaulted' && plan.optOut !== 'optional')) output[key] = result;
  }
  if (strict) {
    const unknownKeys: string[] = [];
    for (const key in value) if (!Object.hasOwn(shape, key)) unknownKeys.push(`"${key}"`);
    if (unknownKeys.length > 0) return new Failure(`Unrecognized key${unknownKeys.length > 1 ? 's' : ''}: ${unknownKeys.join(', ')}`);
  }
  return output;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalidType(expected: string, value: unknown): Failure {
  return new Failure(`Invalid input: expected ${expected}, received ${receivedName(value)}`);
}

// zod's parsedType, as its English messages name it.
function receivedName(value: unknown): string {
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : Number.isFinite(value) ? 'number' : String(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object' && Object.getPrototypeOf(value) !== Object.prototype && 'constructor' in value && value.constructor) {
    return (value.constructor as { name: string }).name;
  }
  return typeof value;
}

function invalidValue(values: readonly (string | number | boolean | null)[]): string {
  const shown = values.map((value) => (typeof value === 'string' ? `"${value}"` : String(value)));
  return shown.length === 1 ? `Invalid input: expected ${shown[0]}` : `Invalid option: expected one of ${shown.join('|')}`;
}
