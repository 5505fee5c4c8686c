// Module hooks for the child: @opentelemetry/* cannot be found, as in an app that never installed it.
export async function resolve(specifier, context, nextResolve) {
  if (specifier.startsWith('@opentelemetry/')) {
    throw Object.assign(new Error(`Cannot find package '${specifier}' (hidden by the test's module hooks)`), { code: 'ERR_MODULE_NOT_FOUND' });
  }
  return nextResolve(specifier, context);
}
