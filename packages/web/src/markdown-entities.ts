// Character references in Markdown text (`&amp;`, `&#39;`, `&#x2713;`) become the character they
// name, as text. Numeric references are complete; named ones are the few dozen models write (the
// full HTML table is ~2,000 names and would weigh more than the whole renderer). A name not listed
// here stays as written, which is what a reader sees for an unknown name anyway.

const named: Record<string, string> = {
  amp: '&', AMP: '&', lt: '<', LT: '<', gt: '>', GT: '>', quot: '"', QUOT: '"', COPY: '©', REG: '®', apos: "'", nbsp: '\u00a0', ensp: '\u2002', emsp: '\u2003', thinsp: '\u2009',
  shy: '\u00ad', zwj: '\u200d', zwnj: '\u200c', copy: '©', reg: '®', trade: '™', hellip: '…', mdash: '—', ndash: '–',
  lsquo: '‘', rsquo: '’', sbquo: '‚', ldquo: '“', rdquo: '”', bdquo: '„', laquo: '«', raquo: '»', lsaquo: '‹', rsaquo: '›',
  bull: '•', middot: '·', times: '×', divide: '÷', deg: '°', plusmn: '±', para: '¶', sect: '§', euro: '€', pound: '£',
  yen: '¥', cent: '¢', curren: '¤', larr: '←', rarr: '→', uarr: '↑', darr: '↓', harr: '↔', lArr: '⇐', rArr: '⇒', hArr: '⇔',
  le: '≤', ge: '≥', ne: '≠', asymp: '≈', equiv: '≡', infin: '∞', minus: '−', sum: '∑', prod: '∏', radic: '√', micro: 'µ',
  frac12: '½', frac14: '¼', frac34: '¾', sup2: '²', sup3: '³', check: '✓', cross: '✗', star: '☆', starf: '★', dagger: '†',
  Dagger: '‡', permil: '‰', prime: '′', Prime: '″', iexcl: '¡', iquest: '¿', alpha: 'α', beta: 'β', gamma: 'γ', delta: 'δ',
  Delta: 'Δ', lambda: 'λ', mu: 'μ', pi: 'π', sigma: 'σ', Sigma: 'Σ', Omega: 'Ω', omega: 'ω', theta: 'θ', forall: '∀', exist: '∃',
  isin: '∈', and: '∧', or: '∨', not: '¬', num: '#', excl: '!', quest: '?', colon: ':', semi: ';', comma: ',', period: '.',
  lpar: '(', rpar: ')', lsqb: '[', rsqb: ']', lbrack: '[', rbrack: ']', lcub: '{', rcub: '}', lbrace: '{', rbrace: '}',
  ast: '*', lowbar: '_', grave: '`', Hat: '^', verbar: '|', vert: '|', bsol: '\\', sol: '/', dollar: '$', percnt: '%',
  plus: '+', equals: '=', commat: '@', tilde: '˜', NewLine: '\n', Tab: '\t',
};

/** The character `reference` (`&…;`) names, or undefined when it names none we know. */
export function decodeEntity(reference: string): string | undefined {
  const body = reference.slice(1, -1);
  if (body.startsWith('#')) {
    const code = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
    // NUL, surrogates and anything past Unicode become the replacement character, as in HTML.
    if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\uFFFD';
    return String.fromCodePoint(code);
  }
  return Object.hasOwn(named, body) ? named[body] : undefined;
}
