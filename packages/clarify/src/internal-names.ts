// The user must never see an argument or tool name such as `cust_acct_no_v2` or `fnCode`: it means
// nothing to them and leaks the system's insides. A name is "internal" when it is written the way
// code writes names — with an underscore, hyphen, dot, dollar or digit, or in camelCase. A plain
// word (`city`, `email`) is ordinary language: the label "City" or the sentence "your email
// address" may contain it without showing anything internal.

const codeLike = /[_\-.$\d]|[a-z][A-Z]/;

/** True for a name written the way code writes names (`cust_acct_no_v2`, `fnCode`, `plant-id`). */
export function isInternalName(name: string): boolean {
  return codeLike.test(name);
}

/**
 * A test for the internal names among `names`: does a text mention any of them as a whole token
 * (any case)? "请提供fnCode" and "the CUST_ACCT_NO_V2 field" do; "fnCodes" and "my_fnCode" do not.
 */
export function internalNameFinder(names: Iterable<string>): (text: string) => string | undefined {
  const internal = [...new Set([...names].filter(isInternalName))];
  if (internal.length === 0) return () => undefined;
  // Longest first, so a name that contains another is reported as itself.
  internal.sort((a, b) => b.length - a.length);
  // ASCII word edges: Chinese writes no spaces, so "请提供fnCode" must match as well.
  const pattern = new RegExp(`(?<![A-Za-z0-9_])(?:${internal.map(escape).join('|')})(?![A-Za-z0-9_])`, 'i');
  return (text) => pattern.exec(text)?.[0];
}

function escape(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

// In running text, isInternalName is too eager: "Wi-Fi", "9号炉", "e.g.", "MP3" and "McDonald's"
// are how people write. What only code writes is an underscore (`addr_line_1`), a `$` before a
// name (`$ref`), or lowerCamelCase with a word of two letters or more before its first hump
// (`maxWeightKg`, `fnCode`; not `iPhone`, `eBay` or `macOS`). A dotted path counts when one of its
// parts does (`order.customerId`).
const codeRun = /[A-Za-z0-9_$][A-Za-z0-9_$.-]*/g;
const writtenOnlyByCode = /[A-Za-z0-9]_|_[A-Za-z0-9]|\$[A-Za-z_]|^[a-z][a-z0-9]+[A-Z][a-z0-9]/;

/** True for a token of running text that only code would write: `addr_line_1`, `maxWeightKg`, `$ref`, `order.customerId`. */
export function isIdentifierToken(token: string): boolean {
  return token.split(/[.-]/).some((part) => writtenOnlyByCode.test(part));
}

/**
 * `text` with every identifier-shaped token written as the words it is made of, so a person reads
 * words, not code: "stored as addr_line_1" → "stored as addr line 1", "maxWeightKg" → "max weight
 * kg", "$ref" → "ref". Everything else is left exactly as it was, web and e-mail addresses too.
 */
export function identifiersAsWords(text: string): string {
  return text.replace(codeRun, (run: string, at: number) => {
    // A sentence's full stop or a dash after a token is not part of it.
    const token = run.replace(/[.-]+$/, '');
    // Part of a web or e-mail address (`https://x.org/a_b`, `ops_team@x.org`): the person may need it exactly.
    const inAddress = /[/@]/.test(text[at - 1] ?? '') || text[at + token.length] === '@';
    if (inAddress || !isIdentifierToken(token)) return run;
    return identifierWords(token) + run.slice(token.length);
  });
}

/** The words of one identifier, lower case: `CUST_ACCT_NO` → "cust acct no", `userId2` → "user id2". */
function identifierWords(token: string): string {
  return token
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_$.-]+/)
    .filter((word) => word !== '')
    .join(' ')
    .toLowerCase();
}
