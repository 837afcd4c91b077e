// Marks words in a page's text layer: search hits and the words a note is pinned to. The text layer is pdf.js's
// spans, one per run of text, so words are matched across spans and without regard to spaces or case (a PDF's
// spaces are often not characters at all): a best effort, as good as the PDF's text.

interface Position {
  node: Text;
  offset: number;
}

/** The text layer's characters other than spaces, in order, with where each one is. */
function charactersOf(container: HTMLElement): { text: string; positions: Position[] } {
  const walker = container.ownerDocument.createTreeWalker(container, NodeFilter.SHOW_TEXT);
  const positions: Position[] = [];
  let text = "";
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    const value = node.data;
    for (let offset = 0; offset < value.length; offset++) {
      if (/\s/.test(value[offset]!)) continue;
      text += value[offset]!.toLowerCase();
      positions.push({ node, offset });
    }
  }
  return { text, positions };
}

/**
 * Wraps each occurrence of `needle` in `<mark class={className}>` (one per span it runs through), at most `limit`
 * occurrences; answers the marks of each occurrence, in order.
 */
export function markText(container: HTMLElement, needle: string, className: string, limit = 200): HTMLElement[][] {
  const wanted = needle.replace(/\s+/g, "").toLowerCase();
  if (!wanted) return [];
  const { text, positions } = charactersOf(container);
  const found: Array<[number, number]> = [];
  for (let at = text.indexOf(wanted); at !== -1 && found.length < limit; at = text.indexOf(wanted, at + wanted.length)) {
    found.push([at, at + wanted.length]);
  }
  const marks: HTMLElement[][] = found.map(() => []);
  // Last first: wrapping splits a text node after the wrapped part, so the positions before it stay true.
  for (let index = found.length - 1; index >= 0; index--) {
    const [start, end] = found[index]!;
    const byNode = new Map<Text, { from: number; to: number }>();
    for (const { node, offset } of positions.slice(start, end)) {
      const span = byNode.get(node);
      if (span) span.to = offset + 1;
      else byNode.set(node, { from: offset, to: offset + 1 });
    }
    for (const [node, { from, to }] of [...byNode].reverse()) {
      const range = container.ownerDocument.createRange();
      range.setStart(node, from);
      range.setEnd(node, to);
      const mark = container.ownerDocument.createElement("mark");
      mark.className = className;
      range.surroundContents(mark);
      marks[index]!.unshift(mark);
    }
  }
  return marks;
}

/** Takes out the marks of `className`, leaving their text where it was. */
export function clearMarks(container: HTMLElement, className: string): void {
  for (const mark of container.querySelectorAll(`mark.${className}`)) mark.replaceWith(...mark.childNodes);
  container.normalize();
}
