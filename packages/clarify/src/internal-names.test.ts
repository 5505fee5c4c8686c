import { describe, expect, it } from 'vitest';
import { identifiersAsWords, internalNameFinder, isIdentifierToken, isInternalName } from './internal-names.js';

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

describe('identifier-shaped tokens in running text', () => {
  it.each(['addr_line_1', 'maxWeightKg', 'fnCode', 'userId2', '$ref', 'CUST_ACCT_NO', 'order.customerId', 'x-clarifyTemplate'])('%s is written only by code', (token) => {
    expect(isIdentifierToken(token)).toBe(true);
  });

  it.each(['Wi-Fi', "McDonald's", 'iPhone', 'eBay', 'macOS', 'YouTube', 'e.g.', 'MP3', '9号炉', 'e-mail', '2026-08-20', 'order.id'])('%s is how people write', (token) => {
    expect(isIdentifierToken(token)).toBe(false);
  });

  it('writes identifiers as words and leaves the rest of the text, addresses included, as it was', () => {
    expect(identifiersAsWords('Stored as addr_line_1. See maxWeightKg (in kg), $ref and SHIP_TO.')).toBe('Stored as addr line 1. See max weight kg (in kg), ref and ship to.');
    expect(identifiersAsWords('请填写addr_line_1字段')).toBe('请填写addr line 1字段');
    expect(identifiersAsWords('Wi-Fi at McDonald\'s, e.g. 9号炉')).toBe('Wi-Fi at McDonald\'s, e.g. 9号炉');
    expect(identifiersAsWords('Mail ops_team@example.com or see https://example.com/user_id')).toBe('Mail ops_team@example.com or see https://example.com/user_id');
  });
});
