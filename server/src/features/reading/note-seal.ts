import { sealFor, unsealFor } from "../../integrations/secrets";

// A note's words (its text and the quote it is pinned to) are stored only sealed, under a key of its author's own:
// neither a reader of the database nor another member's key opens them.

const purpose = "paper note";

export interface NoteWords {
  text: string;
  quote: string | null;
}

export function sealNote(appSecret: string, authorId: number, words: NoteWords): string {
  return sealFor(purpose, authorId, appSecret, JSON.stringify({ text: words.text, quote: words.quote }));
}

export function openNote(appSecret: string, authorId: number, sealed: string): NoteWords {
  const words = JSON.parse(unsealFor(purpose, authorId, appSecret, sealed)) as Partial<NoteWords>;
  return { text: String(words.text ?? ""), quote: typeof words.quote === "string" ? words.quote : null };
}
