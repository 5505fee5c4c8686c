// A number input reports what the person typed in HTML's "valid floating-point number" form, which
// allows `.5`, `1e3` and `2.5E-3`; the seam takes only a plain decimal (`-?digits(.digits)?`).
// This rewrites the first form into the second exactly, by moving the decimal point in the digit
// string: no floating point is involved, so 0.1 stays 0.1 and 1e21 stays a 22-digit integer.

const floatingPoint = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** Exponents beyond this would only spell out zeros no person typed on purpose; refused. */
const maxExponent = 400;

/**
 * `text` (a number input's value) as a plain decimal the seam accepts, or `undefined` when it is
 * not a number at all. Without an exponent the digits stay as typed (`12.50` stays `12.50`), only a
 * bare leading point gains its zero (`.5` → `0.5`) and a trailing point is dropped (`1.` → `1`).
 */
export function plainDecimalText(text: string): string | undefined {
  const match = floatingPoint.exec(text);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', exponentText] = match;
  if (whole === '' && fraction === '') return undefined;
  if (exponentText === undefined) return `${sign}${whole === '' ? '0' : whole}${fraction === '' ? '' : `.${fraction}`}`;

  const exponent = Number(exponentText);
  if (Math.abs(exponent) > maxExponent) return undefined;
  const digits = `${whole}${fraction}`;
  // Where the decimal point falls in `digits` once the exponent is applied.
  const point = whole.length + exponent;
  let integerPart: string;
  let fractionPart: string;
  if (point <= 0) {
    integerPart = '0';
    fractionPart = `${'0'.repeat(-point)}${digits}`;
  } else if (point >= digits.length) {
    integerPart = `${digits}${'0'.repeat(point - digits.length)}`;
    fractionPart = '';
  } else {
    integerPart = digits.slice(0, point);
    fractionPart = digits.slice(point);
  }
  integerPart = integerPart.replace(/^0+(?=\d)/, '');
  fractionPart = fractionPart.replace(/0+$/, '');
  return `${sign}${integerPart}${fractionPart === '' ? '' : `.${fractionPart}`}`;
}
