// Checks a tool's parameter schema against the rules each provider documents, by walking it.
// Written from the providers' documentation (facts only):
// - OpenAI Structured Outputs / strict function calling ("Supported schemas"): the root is an
//   object and not anyOf; every object sets additionalProperties: false; every property is listed in
//   required (optional ones are expressed by adding "null" to the type); supported types are string,
//   number, boolean, integer, object, array, null, enum, anyOf; allOf, not, if/then/else,
//   dependentRequired and dependentSchemas are unsupported; at most 10 levels of object nesting.
// - Anthropic tool definitions: input_schema is a JSON Schema whose root type is "object". Strict tool
//   use (and structured outputs) additionally require additionalProperties: false on every object and
//   do not support numeric constraints, minLength/maxLength, maxItems or minItems other than 0 or 1;
//   at most 24 optional parameters and 16 parameters using anyOf or type arrays per request.
// `$schema` is listed by neither, so neither profile allows it.

type Schema = Record<string, unknown>;

const openAIStrictKeywords = new Set([
  'type', 'description', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', '$defs', '$ref',
  'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems',
]);
const openAITypes = new Set(['string', 'number', 'boolean', 'integer', 'object', 'array', 'null']);

const anthropicStrictKeywords = new Set([
  'type', 'description', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', 'allOf', '$defs',
  'definitions', '$ref', 'format', 'pattern', 'default', 'minItems',
]);

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typesOf(schema: Schema): string[] {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
}

/** Every sub-schema with its JSON path and its object-nesting depth (the root object is depth 1). */
function* walk(schema: Schema, path = '#', depth = 1): Generator<{ schema: Schema; path: string; depth: number }> {
  yield { schema, path, depth };
  const childDepth = typesOf(schema).includes('object') ? depth + 1 : depth;
  if (isSchema(schema.properties)) {
    for (const [key, child] of Object.entries(schema.properties)) if (isSchema(child)) yield* walk(child, `${path}/properties/${key}`, childDepth);
  }
  if (isSchema(schema.items)) yield* walk(schema.items, `${path}/items`, depth);
  for (const keyword of ['anyOf', 'allOf', 'oneOf'] as const) {
    const list = schema[keyword];
    if (Array.isArray(list)) for (const [index, child] of list.entries()) if (isSchema(child)) yield* walk(child, `${path}/${keyword}/${index}`, depth);
  }
}

function isObjectSchema(schema: Schema): boolean {
  return typesOf(schema).includes('object') || isSchema(schema.properties);
}

function rootProblems(schema: Schema): string[] {
  const problems: string[] = [];
  if (schema.type !== 'object') problems.push('#: the root must have type "object"');
  if ('anyOf' in schema) problems.push('#: the root must not be anyOf');
  return problems;
}

/** Why `schema` would be refused as OpenAI strict function parameters (empty when it qualifies). */
export function openAIStrictProblems(schema: Schema): string[] {
  const problems = rootProblems(schema);
  for (const { schema: node, path, depth } of walk(schema)) {
    for (const key of Object.keys(node)) if (!openAIStrictKeywords.has(key)) problems.push(`${path}: keyword "${key}" is not supported in strict mode`);
    for (const type of typesOf(node)) if (!openAITypes.has(type)) problems.push(`${path}: type "${type}" is not supported`);
    if (depth > 10) problems.push(`${path}: more than 10 levels of object nesting`);
    if (!isObjectSchema(node)) continue;
    if (node.additionalProperties !== false) problems.push(`${path}: additionalProperties must be false`);
    const required = new Set(Array.isArray(node.required) ? node.required : []);
    for (const key of Object.keys(isSchema(node.properties) ? node.properties : {})) {
      if (!required.has(key)) problems.push(`${path}: property "${key}" must be listed in required`);
    }
  }
  return problems;
}

/** Why `schema` would be refused as OpenAI non-strict function parameters. */
export function openAIProblems(schema: Schema): string[] {
  return rootProblems(schema);
}

/** Why `schema` would be refused as an Anthropic input_schema (with `strict`, the strict tool use rules too). */
export function anthropicProblems(schema: Schema, options: { strict?: boolean } = {}): string[] {
  const problems = schema.type === 'object' ? [] : ['#: input_schema must have type "object"'];
  if (!options.strict) return problems;
  let optional = 0;
  let unions = 0;
  for (const { schema: node, path } of walk(schema)) {
    for (const key of Object.keys(node)) if (!anthropicStrictKeywords.has(key)) problems.push(`${path}: keyword "${key}" is not supported in strict tool use`);
    if ('minItems' in node && node.minItems !== 0 && node.minItems !== 1) problems.push(`${path}: minItems may only be 0 or 1`);
    if ('anyOf' in node || Array.isArray(node.type)) unions++;
    if (!isObjectSchema(node)) continue;
    if (node.additionalProperties !== false) problems.push(`${path}: additionalProperties must be false`);
    const required = new Set(Array.isArray(node.required) ? node.required : []);
    optional += Object.keys(isSchema(node.properties) ? node.properties : {}).filter((key) => !required.has(key)).length;
  }
  if (optional > 24) problems.push(`#: ${optional} optional parameters (at most 24)`);
  if (unions > 16) problems.push(`#: ${unions} parameters use anyOf or type arrays (at most 16)`);
  return problems;
}

/** Every property name used anywhere in the schema. */
export function propertyNames(schema: Schema): string[] {
  const names: string[] = [];
  for (const { schema: node } of walk(schema)) if (isSchema(node.properties)) names.push(...Object.keys(node.properties));
  return names;
}

/** Every object schema with its path. */
export function objectSchemas(schema: Schema): Array<{ path: string; schema: Schema }> {
  return [...walk(schema)].filter(({ schema: node }) => isObjectSchema(node)).map(({ path, schema: node }) => ({ path, schema: node }));
}
