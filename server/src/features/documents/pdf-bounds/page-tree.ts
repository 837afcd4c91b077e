/** A kid of a page-tree node that is a dictionary written in place (no object of its own): one page at most. */
export const LEAF = -1;

/**
 * A page-tree node's kids: references in place (object numbers; LEAF for a dictionary written in place; an
 * unnumbered node's key below LEAF), or the object number of an array that holds them.
 */
export type Kids = { refs: number[] } | { array: number };

/**
 * What a file's objects say about its pages, gathered as they are read and counted at the end. Every definition
 * of an object number is kept (a reader takes the last, but which one is last is not sure while reading, and an
 * older revision of an honest file has no more pages than the newer one): a number counts as many pages as the
 * most any of its definitions holds. Page objects count once per object number, however often they are revised.
 */
export class PageTree {
  /** Object numbers defined as a page (at most one past the limit is kept: by then the file is refused). */
  readonly pages = new Set<number>();
  /** Page dictionaries with no object number of their own (written in place, or in data that is no object). */
  unnumberedPages = 0;
  /** The largest /Count of any page-tree node. */
  largestCount = 0;
  /** The file names an /Encrypt dictionary. */
  encrypted = false;
  /** The file has an object stream (whose objects, when it is encrypted, cannot be read here). */
  objectStreams = false;
  /** More references and nodes than are kept: the file cannot be checked. */
  overflow = false;
  private readonly nodes = new Map<number, Kids[]>();
  private readonly unnumbered = new Map<number, Kids>();
  private readonly arrays = new Map<number, number[][]>();
  private nextKey = LEAF - 1;
  private entries = 0;

  constructor(
    private readonly limit: number,
    private readonly maxEntries: number,
  ) {}

  /** How many more entries may be kept. */
  room(): number {
    return Math.max(0, this.maxEntries - this.entries);
  }

  /** Counts `n` more entries kept (references read into arrays, nodes, header entries). */
  spend(n: number): void {
    this.entries += n;
    if (this.entries > this.maxEntries) this.overflow = true;
  }

  page(number: number): void {
    if (this.pages.size <= this.limit) this.pages.add(number);
  }

  /** A page-tree node under its object numbers, or (numbers null) unnumbered: answers the key it is kept under. */
  node(numbers: number[] | null, kids: Kids, count: number | undefined): number {
    if (count !== undefined) this.largestCount = Math.max(this.largestCount, count);
    this.spend(1);
    if (numbers === null) {
      const key = this.nextKey;
      this.nextKey -= 1;
      this.unnumbered.set(key, kids);
      return key;
    }
    for (const number of numbers) {
      const defined = this.nodes.get(number);
      if (defined) defined.push(kids);
      else this.nodes.set(number, [kids]);
    }
    return numbers[0]!;
  }

  array(number: number, refs: number[]): void {
    const defined = this.arrays.get(number);
    if (defined) defined.push(refs);
    else this.arrays.set(number, [refs]);
  }

  /**
   * The most pages any node holds, counting its kids' pages with each reference as often as it is made (a
   * reader walks a shared subtree once for each), at most one past the limit; a loop counts as past it. Every node
   * is a candidate root. Walked without recursion: a hostile tree may be a million levels deep.
   */
  largestTree(): number {
    const cap = this.limit + 1;
    const memo = new Map<number, number>();
    const visiting = new Set<number>();
    const lists = (kids: Kids): number[][] => ("refs" in kids ? [kids.refs] : (this.arrays.get(kids.array) ?? []));
    const alternatives = (key: number): number[][] =>
      key < LEAF ? lists(this.unnumbered.get(key)!) : (this.nodes.get(key) ?? []).flatMap(lists);
    interface Step {
      key: number;
      alternatives: number[][];
      alternative: number;
      index: number;
      sum: number;
      best: number;
    }
    const start = (key: number): Step => ({
      key,
      alternatives: alternatives(key),
      alternative: 0,
      index: 0,
      sum: 0,
      best: key >= 0 && this.pages.has(key) ? 1 : 0,
    });
    let largest = 0;
    for (const root of [...this.nodes.keys(), ...this.unnumbered.keys()]) {
      if (memo.has(root)) continue;
      const stack: Step[] = [start(root)];
      visiting.add(root);
      while (stack.length > 0) {
        const step = stack[stack.length - 1]!;
        const list = step.alternatives[step.alternative];
        if (list === undefined) {
          stack.pop();
          visiting.delete(step.key);
          memo.set(step.key, step.best);
          const parent = stack[stack.length - 1];
          if (parent) parent.sum = Math.min(cap, parent.sum + step.best);
          continue;
        }
        if (step.index >= list.length || step.sum >= cap) {
          step.best = Math.max(step.best, step.sum);
          step.alternative += 1;
          step.index = 0;
          step.sum = 0;
          continue;
        }
        const kid = list[step.index]!;
        step.index += 1;
        // A dictionary in place, or an object that is no node (a page, or anything else): one page at most.
        if (kid === LEAF || (kid >= 0 && !this.nodes.has(kid))) {
          step.sum = Math.min(cap, step.sum + 1);
          continue;
        }
        const known = memo.get(kid);
        if (known !== undefined) {
          step.sum = Math.min(cap, step.sum + known);
          continue;
        }
        if (visiting.has(kid)) return cap;
        visiting.add(kid);
        stack.push(start(kid));
      }
      largest = Math.max(largest, memo.get(root)!);
      if (largest >= cap) return cap;
    }
    return largest;
  }
}
