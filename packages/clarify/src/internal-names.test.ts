import { describe, expect, it } from 'vitest';
import { internalNameFinder, isInternalName } from './internal-names.js';

describe('internal names', () => {
  it.each(['cust_acct_no_v2', 'fnCode', 'plant-id', 'order.id', 'v2', '$ref'])('%s is written the way code writes names', (name) => {
    expect(isInternalName(name)).toBe(true);
  });

  it.each(['city', 'Email', 'SKU', '炉号'])('%s is an ordinary word', (name) => {
    expect(isInternalName(name)).toBe(false);
  });

  it('finds a name as a whole token in any case, also between Chinese characters', () => {
    const find = internalNameFinder(['fnCode', 'cust_acct_no_v2', 'city']);
    expect(find('请提供fnCode。')).toBe('fnCode');
    expect(find('What is the CUST_ACCT_NO_V2?')).toBe('CUST_ACCT_NO_V2');
    expect(find('Which fnCodes or my_fnCode?')).toBeUndefined();
    // Plain words are language, not leaks.
    expect(find('Which city?')).toBeUndefined();
  });

  it('reports the longer of two names that overlap', () => {
    expect(internalNameFinder(['acct', 'acct_no', 'acct_no_v2'])('the acct_no_v2 value')).toBe('acct_no_v2');
  });

  it('treats regular-expression characters in names literally', () => {
    const find = internalNameFinder(['a.b', 'x$y']);
    expect(find('axb')).toBeUndefined();
    expect(find('see a.b and x$y')).toBe('a.b');
  });
});
