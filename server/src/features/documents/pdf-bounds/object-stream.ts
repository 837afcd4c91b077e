import { PdfLexer } from "./lexer";
import type { PageTree } from "./page-tree";
import { charClass, WHITE } from "./syntax";

/**
 * An object stream's objects, read into the page tree: its header's `n` pairs (object number, offset from `first`)
 * say where each object begins, the last pair for a number winning, as a reader takes them. Without a header that
 * reads (or a layout), a reader takes none of its objects; they are read all the same, without numbers.
 */
export function readObjectStream(data: Buffer, layout: { n: number; first: number } | null, tree: PageTree): void {
  const starts = new Map<number, number>();
  if (layout !== null) {
    // Header entries count against what the tree keeps, before they are kept: a header may claim millions.
    const pairs = headerPairs(data, Math.min(layout.n, tree.room() + 1));
    tree.spend(pairs.length / 2);
    if (tree.overflow) return;
    for (let at = 0; at < pairs.length; at += 2) starts.set(pairs[at]!, layout.first + pairs[at + 1]!);
  }
  const byStart = new Map<number, number[]>();
  for (const [number, start] of starts) {
    if (start >= data.length) continue;
    const numbers = byStart.get(start);
    if (numbers) numbers.push(number);
    else byStart.set(start, [number]);
  }
  const lexer = new PdfLexer(tree, false);
  // Object streams hold no streams: where one seems to begin, reading simply goes on.
  const read = (piece: Buffer) => {
    for (let at = lexer.write(piece); at >= 0; at = lexer.write(piece, at));
  };
  let at = 0;
  for (const start of [...byStart.keys()].sort((a, b) => a - b)) {
    read(data.subarray(at, start));
    lexer.beginObject(byStart.get(start)!);
    at = start;
  }
  read(data.subarray(at));
  lexer.end();
}

/**
 * The first `n` pairs of whole numbers at the start of an object stream, up to the first thing that is none, one
 * after the other in one array.
 */
function headerPairs(data: Buffer, n: number): number[] {
  const pairs: number[] = [];
  const numbers: number[] = [];
  let at = 0;
  while (pairs.length < 2 * n) {
    while (at < data.length && charClass[data[at]!] === WHITE) at += 1;
    const start = at;
    while (at < data.length && at - start < 10 && data[at]! >= 0x30 && data[at]! <= 0x39) at += 1;
    if (at === start || (at < data.length && charClass[data[at]!] !== WHITE)) return pairs;
    numbers.push(Number(data.toString("latin1", start, at)));
    if (numbers.length === 2) {
      pairs.push(numbers[0]!, numbers[1]!);
      numbers.length = 0;
    }
  }
  return pairs;
}
