import type { AgentRef, UserQuestions } from '@askseam/user-questions';

/** The release settings a person filled in on the form below. */
export interface ReleaseSettings {
  version: string;
  notes: string | undefined;
  canaryPercent: number;
  channel: string;
  regions: string[];
  migrate: boolean;
  day: string | undefined;
}

/**
 * Ask for a release's settings as one urgent form. The element shows each question with its native
 * control, marks the required ones, and sends only answers that fit (the seam checks them again),
 * so the values read back here need no re-checking.
 */
export async function askReleaseSettings(userQuestions: UserQuestions, agent: AgentRef): Promise<ReleaseSettings> {
  const { answers } = await userQuestions.ask({
    agent,
    urgency: 'high',
    questions: [
      { id: 'version', header: 'Release', question: 'Which version goes out?', input: { kind: 'text', maxLength: 20 }, required: true, placeholder: 'v1.5.0' },
      { id: 'notes', question: 'Anything for the release notes?', input: { kind: 'textarea', maxLength: 2000 } },
      { id: 'canary', question: 'What share of traffic gets it first (%)?', input: { kind: 'number', min: 0, max: 100, step: 5 }, required: true },
      { id: 'channel', question: 'Which channel?', input: { kind: 'select' }, options: [{ label: 'stable (Recommended)' }, { label: 'beta' }], required: true },
      { id: 'regions', question: 'Which regions?', input: { kind: 'multi_select' }, options: [{ label: 'eu-west' }, { label: 'us-east' }], required: true },
      { id: 'migrate', question: 'Run the database migrations?', input: { kind: 'checkbox' }, required: true },
      { id: 'day', question: 'On which day?', input: { kind: 'date', min: '2026-01-01' } },
    ],
  });
  const byId = new Map(answers.map((item) => [item.id, item]));
  const custom = (id: string) => byId.get(id)?.custom;
  const selected = (id: string) => byId.get(id)?.selected ?? [];
  return {
    version: custom('version') ?? '', // required: always there
    notes: custom('notes'), // undefined when skipped
    canaryPercent: Number(custom('canary')), // a plain decimal such as "25"
    channel: selected('channel')[0] ?? custom('channel') ?? '', // an option, or the person's own words
    regions: selected('regions'),
    migrate: custom('migrate') === 'true', // "true" or "false"
    day: custom('day'), // YYYY-MM-DD
  };
}
