/** At most this many words are highlighted, each at most this long: the address is anyone's to write. */
const maxTerms = 10;
const maxTermLength = 100;

/** The words `?highlight=` asks the reader to mark on every page, split on spaces, each once (compared without case). */
export function highlightTerms(param: string | null | undefined): string[] {
  if (!param) return [];
  const terms = new Map<string, string>();
  for (const term of param.replace(/\p{Cc}/gu, " ").split(/\s+/)) {
    if (!term || term.length > maxTermLength) continue;
    terms.set(term.toLowerCase(), term);
    if (terms.size === maxTerms) break;
  }
  return [...terms.values()];
}
