import { markedWords } from "@/features/search/lib/snippet";

/** At most this many words are carried to the reader to highlight. */
const maxHighlightWords = 10;

/**
 * The words a query looks for, as a reader should highlight them: quotes and the OR between words are the query's
 * syntax, and a word after a minus is one the results do not have.
 */
export function queryWords(query: string): string[] {
  const words: string[] = [];
  for (const [, minus, word] of query.matchAll(/(-?)([\p{L}\p{N}][\p{L}\p{N}'’_-]*)/gu)) {
    if (minus || word!.toLowerCase() === "or") continue;
    words.push(word!);
  }
  return words;
}

/**
 * What the reader highlights for a paper's hit: the query's words and the forms the server matched on that page (a
 * search for "meetings" marks "meeting" in the snippet), each once.
 */
export function highlightWords(query: string, snippet: string): string[] {
  const words = [...queryWords(query), ...markedWords(snippet)];
  const unique = new Map(words.map((word) => [word.toLowerCase(), word]));
  return [...unique.values()].slice(0, maxHighlightWords);
}
