import { Fragment } from "react";

/** A piece of a snippet: plain text, or words the search matched. */
export interface SnippetPart {
  text: string;
  marked: boolean;
}

const entities: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };

/** The text an escaped run stands for; one pass, so "&amp;lt;" stays "&lt;" as written. */
function unescape(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => entities[entity]!);
}

/**
 * A snippet's parts. The server sends HTML-escaped text in which only <mark> and </mark> are markup: the snippet is
 * split on those two tags and nothing else is ever read as markup, so a paper's "<script>" is shown as text.
 */
export function snippetParts(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let marked = false;
  for (const piece of snippet.split(/(<mark>|<\/mark>)/)) {
    if (piece === "<mark>") marked = true;
    else if (piece === "</mark>") marked = false;
    else if (piece) parts.push({ text: unescape(piece), marked });
  }
  return parts;
}

/** The words a snippet marks, each once (compared without case). */
export function markedWords(snippet: string): string[] {
  const words = snippetParts(snippet)
    .filter((part) => part.marked)
    .map((part) => part.text.trim())
    .filter(Boolean);
  return [...new Map(words.map((word) => [word.toLowerCase(), word])).values()];
}

/** A snippet drawn as React text with its matched words in <mark>. */
export function Snippet({ snippet, className }: { snippet: string; className?: string }) {
  return (
    <span className={className}>
      {snippetParts(snippet).map((part, index) =>
        part.marked ? (
          <mark key={index} className="rounded-sm bg-yellow-200 px-0.5 text-current dark:bg-yellow-500/30">
            {part.text}
          </mark>
        ) : (
          <Fragment key={index}>{part.text}</Fragment>
        ),
      )}
    </span>
  );
}
