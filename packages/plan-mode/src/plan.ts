// A heading line: "# " and then some title text. "## Steps" or "#Title" do not count.
const titleLine = /^# +\S/;

/**
 * Why `plan` is not a reviewable Markdown plan (its first non-blank line must be a "# " title),
 * or `undefined` when it is.
 */
export function planProblem(plan: string): string | undefined {
  const firstLine = plan.split(/\r?\n/).find((line) => line.trim() !== '');
  if (firstLine === undefined) return 'The plan is empty.';
  if (titleLine.test(firstLine)) return undefined;
  return `The plan must start with a Markdown "# " title line, but its first line is "${preview(firstLine)}".`;
}

function preview(line: string): string {
  const trimmed = line.trim();
  return trimmed.length > 60 ? `${trimmed.slice(0, 57)}...` : trimmed;
}
