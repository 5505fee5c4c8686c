import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { frameErrorCodeSchema, receiptRejectionReasonSchema } from '@askseam/protocol';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

describe('the protocol docs', () => {

  it.each([...frameErrorCodeSchema.options, ...receiptRejectionReasonSchema.options])('the error page has a row for %s', (code) => {
    expect(read('../../../docs/errors.md')).toMatch(new RegExp(`^\\| \`${code}\` \\|`, 'm'));
  });
});
