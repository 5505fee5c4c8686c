// Namespace import: lets bundlers drop the parts of zod (locales) we never use.
import * as z from 'zod';

/** What `schema.safeParse` returns, and takes. */
export type SafeParse<Output> = (value: unknown, params?: z.core.ParseContext<z.core.$ZodIssue>) => z.ZodSafeParseResult<Output>;

/**
 * `schema.safeParse`, answered faster on the hot paths (every frame, answer and stored record):
 * compiled on first use with zod's own `z.compile` (zod ≥ 4.5), whose generated parser gives the
 * same data for what it accepts and hands everything else back to the schema, so the successes,
 * the failures and the error messages are the schema's own. Where compiling is not possible (an
 * older zod 4, `z.config({ jitless: true })` for a page whose CSP forbids eval, a recursive
 * schema) it is the schema's own `safeParse`. Compiled lazily: a program that never parses does not pay the few milliseconds.
 */
export function compiledSafeParse<Schema extends z.ZodType>(schema: Schema): SafeParse<z.output<Schema>> {
  let parse: SafeParse<z.output<Schema>> | undefined;
  return (value, params) => {
    parse ??= compile(schema);
    return parse(value, params);
  };
}

function compile<Schema extends z.ZodType>(schema: Schema): SafeParse<z.output<Schema>> {
  const compileSchema = (z as { compile?: (schema: Schema) => Schema }).compile;
  let compiled = schema;
  try {
    // `jitless` is zod's switch for pages whose CSP forbids eval: compiling would only add a
    // violation report there. z.compile never throws by contract (it returns the schema unchanged
    // when it cannot compile); the guard is for zod versions without it and anything unexpected.
    if (typeof compileSchema === 'function' && z.config().jitless !== true) compiled = compileSchema(schema);
  } catch {
    compiled = schema;
  }
  return (value, params) => compiled.safeParse(value, params);
}
