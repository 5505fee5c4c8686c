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
