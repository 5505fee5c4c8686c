// A trailing "(recommended)" / "(推荐)" in matching ASCII or full-width parentheses, any case,
// with whitespace before and after it. Mixed pairs such as "(推荐）" are not a marker.
const recommendedSuffix = /^(.*?)\s*(?:\((?:recommended|推荐)\)|（(?:recommended|推荐)）)\s*$/isu;

/**
 * Split a display label from its "(Recommended)" marker. The marker is removed for display only:
 * an answer must still carry the original label, exactly as offered.
 */
export function parseRecommendedLabel(label: string): { label: string; recommended: boolean } {
  const match = recommendedSuffix.exec(label);
  const rest = match?.[1];
  // A label that is nothing but the marker has no other text to show, so it stays as it is.
  if (rest === undefined || rest.trim() === '') return { label, recommended: false };
  return { label: rest, recommended: true };
}
