/** One place a search found, with the words around it for the results list. */
export interface SearchHit {
  page: number;
  /** The hit's order on its page, from 0: the page's marks are numbered the same way. */
  onPage: number;
  before: string;
  match: string;
  after: string;
}

/** Beyond this many hits the list stops: a word on every line of a long pack is no help to list in full. */
export const maxSearchHits = 500;
const excerptLength = 40;

const squash = (text: string) => text.replace(/\s+/g, " ");

/** Every place `query` occurs in the pages' texts (`texts[0]` is page 1), ignoring case and runs of spaces. */
export function findInPages(texts: readonly string[], query: string): SearchHit[] {
  const needle = squash(query).trim().toLowerCase();
  if (!needle) return [];
  const hits: SearchHit[] = [];
  texts.forEach((raw, index) => {
    const text = squash(raw);
    const lower = text.toLowerCase();
    let onPage = 0;
    for (let at = lower.indexOf(needle); at !== -1 && hits.length < maxSearchHits; at = lower.indexOf(needle, at + needle.length)) {
      hits.push({
        page: index + 1,
        onPage: onPage++,
        before: (at > excerptLength ? "…" : "") + text.slice(Math.max(0, at - excerptLength), at),
        match: text.slice(at, at + needle.length),
        after:
          text.slice(at + needle.length, at + needle.length + excerptLength) +
          (at + needle.length + excerptLength < text.length ? "…" : ""),
      });
    }
  });
  return hits;
}
