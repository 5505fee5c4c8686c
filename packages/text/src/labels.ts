import type { AskUserQuestionOption } from '@askseam/user-questions';

// The same rule as the web UI's parseRecommendedLabel (docs/design.md, "Client and UI"): a trailing
// "(recommended)" or "(推荐)", ASCII or full-width parentheses but not mixed, any case.
const recommendedSuffix = /\s*(?:\((?:recommended|推荐)\)|（(?:recommended|推荐)）)\s*$/i;

/** The label without its Recommended mark, and whether it had one. For display only. */
export function splitRecommended(label: string): { label: string; recommended: boolean } {
  const match = recommendedSuffix.exec(label);
  if (!match || match.index === 0) return { label, recommended: false };
  return { label: label.slice(0, match.index), recommended: true };
}

/** How a person may write a label: any case, full-width or not, with or without the Recommended mark. */
function looseForm(text: string): string {
  const folded = text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
  return splitRecommended(folded).label.trim();
}

/** What a reply names among the options: one index, several that it could equally mean, or none. */
export type LabelLookup = { found: number } | { ambiguous: number[] } | undefined;

/**
 * The option a person named. An exact label wins; otherwise a loose match (case, width, spaces,
 * the Recommended mark) must point at exactly one option.
 */
export function findOption(options: readonly AskUserQuestionOption[], text: string): LabelLookup {
  const exact = options.findIndex((option) => option.label === text);
  if (exact >= 0) return { found: exact };
  const wanted = looseForm(text);
  if (wanted === '') return undefined;
  const matches = options.flatMap((option, index) => (looseForm(option.label) === wanted ? [index] : []));
  if (matches.length === 1) return { found: matches[0]! };
  return matches.length > 1 ? { ambiguous: matches } : undefined;
}
