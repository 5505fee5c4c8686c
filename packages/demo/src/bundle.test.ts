import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultBundlePath } from './bundle.js';

describe('defaultBundlePath', () => {
  it('points at the file @askseam/web builds for browsers', () => {
    expect(defaultBundlePath()).toBe(fileURLToPath(new URL('../../web/dist/browser/askseam-questions.js', import.meta.url)));
  });
});
