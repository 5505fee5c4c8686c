// The one question batch every section asks: three questions (single-select with a
// recommendation, multi-select, single-select answered with custom text), and its answer,
// in each of the shapes the compared systems speak.

/** What the model sends to `ask_user_question` (snake_case, model side). */
export function toolArgs(tag = '') {
  return {
    questions: [
      {
        id: 'database',
        header: 'Database',
        question: `Which database should the new billing service${tag} use?`,
        options: [
          { label: 'PostgreSQL (Recommended)', description: 'Relational and already run by the platform team.' },
          { label: 'SQLite', description: 'Embedded with no operations, but a single writer.' },
          { label: 'DynamoDB', description: 'Managed key-value store, paid per request.' },
        ],
      },
      {
        id: 'features',
        header: 'Scope',
        question: 'Which features must ship in the first release?',
        multi_select: true,
        options: [
          { label: 'Invoices', description: 'PDF invoices emailed each month.' },
          { label: 'Refunds', description: 'Partial and full refunds from the admin page.' },
          { label: 'Webhooks', description: 'Signed events for every payment state change.' },
          { label: 'Tax', description: 'VAT and sales tax by region.' },
        ],
      },
      {
        id: 'deadline',
        header: 'Deadline',
        question: 'When does it need to be live?',
        options: [
          { label: 'This sprint', description: 'Cut scope to fit two weeks.' },
          { label: 'Next quarter', description: 'Full scope, planned with the team.' },
        ],
      },
    ],
  };
}

/** The same batch as the seam takes it (camelCase, what `execute` hands to `ask`). */
export function seamQuestions(tag = '') {
  return toolArgs(tag).questions.map(({ multi_select, ...rest }) =>
    multi_select === undefined ? rest : { ...rest, multiSelect: multi_select },
  );
}

/** The answer a user gives: pick, pick two, and write their own deadline. */
export function seamAnswer() {
  return {
    answers: [
      { id: 'database', selected: ['PostgreSQL (Recommended)'] },
      { id: 'features', selected: ['Invoices', 'Webhooks'] },
      { id: 'deadline', selected: [], custom: 'Before the March pricing change' },
    ],
  };
}

/**
 * The closest MCP elicitation form: one property per question. MCP forms are flat, so the
 * multi-select is an array of titled enums and "pick an option or write your own" becomes a
 * free string whose description lists the options.
 */
export function mcpElicitParams() {
  const [database, features, deadline] = toolArgs().questions;
  const titled = (option) => ({ const: option.label, title: `${option.label}: ${option.description}` });
  return {
    message: 'The billing service needs three decisions before I continue.',
    requestedSchema: {
      type: 'object',
      properties: {
        database: { type: 'string', title: database.header, description: database.question, oneOf: database.options.map(titled) },
        features: { type: 'array', title: features.header, description: features.question, items: { anyOf: features.options.map(titled) } },
        deadline: {
          type: 'string',
          title: deadline.header,
          description: `${deadline.question} Options: ${deadline.options.map((o) => `${o.label} (${o.description})`).join('; ')}; or write your own.`,
        },
      },
      required: ['database', 'features'],
    },
  };
}

/** The answer above as MCP elicitation content. */
export function mcpContent() {
  return { database: 'PostgreSQL (Recommended)', features: ['Invoices', 'Webhooks'], deadline: 'Before the March pricing change' };
}

/** A respond frame as a client sends it, for the parser micro-benchmark. */
export function respondFrameText() {
  return JSON.stringify({
    type: 'question/respond',
    id: 'c1a7d0e2-5b7e-4f1e-9d55-3f0f9d7c1e21',
    rpcId: '6f1c2a9e-8d1b-4b0a-a3c4-0d9b7e6f5a41',
    result: { ok: true, value: { sessionId: 'agent-0001', answer: seamAnswer() } },
  });
}

/** A string of exactly `bytes` ASCII bytes: a baseline frame of the same size as ours. */
export function padding(bytes) {
  return 'x'.repeat(bytes);
}
