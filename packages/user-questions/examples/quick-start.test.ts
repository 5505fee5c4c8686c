import { describe, expect, it } from 'vitest';
import { chooseDatabase } from './quick-start.js';

describe('the quick-start example', () => {
  it('asks through the seam and gets the first option, label in full', async () => {
    await expect(chooseDatabase()).resolves.toBe('Postgres (Recommended)');
  });
});
