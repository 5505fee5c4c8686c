import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { userQuestionErrorCodes } from '@askseam/user-questions';

// Every error code has a row in docs/errors.md. (Code quoted in the docs is example regions, checked by
// `pnpm lint`: scripts/docs-snippets.mjs.)
const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

describe('the error table', () => {
  const table = read('../../../docs/errors.md');

  it.each([...userQuestionErrorCodes, 'INVALID_ARGUMENTS'])('has a row for %s', (code) => {
    expect(table).toMatch(new RegExp(`^\\| \`${code}\` \\|`, 'm'));
  });
});
