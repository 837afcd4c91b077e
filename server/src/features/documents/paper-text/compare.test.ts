import { comparePages, compareLimits, diffLines } from "./compare";

const page = (...lines: string[]) => lines.join("\n");

describe("aligning two versions' pages", () => {
  it("places a removed first page first, and an old page matched nowhere where it was", () => {
    const before = [page("Cover sheet of the paper"), page("Terms of the loan agreement"), page("Signatures of both parties")];
    const after = [page("Terms of the loan agreement"), page("Signatures of both parties")];
    expect(comparePages(before, after)).toEqual([
      { fromPage: 1, toPage: null, change: "removed" },
      { fromPage: 2, toPage: 1, change: "same" },
      { fromPage: 3, toPage: 2, change: "same" },
    ]);
  });

  it("matches a moved page by its text only in order: the alignment keeps the pages' order", () => {
    const a = page("Alpha section about budgets and forecasts");
    const b = page("Beta section about people and hiring plans");
    expect(comparePages([a, b], [b, a]).map((p) => p.change)).toEqual(["removed", "same", "added"]);
  });

  it("tells apart pages that differ by a number, and pairs pages past the bound by position", () => {
    expect(comparePages([page("Budget page 2")], [page("Budget page 3")]).map((p) => p.change)).toEqual(["removed", "added"]);
    const limit = compareLimits.maxAlignedPages;
    compareLimits.maxAlignedPages = 1;
    try {
      const result = comparePages(["Same first page", "Old second page"], ["Same first page", "Entirely new words"]);
      expect(result).toEqual([
        { fromPage: 1, toPage: 1, change: "same" },
        {
          fromPage: 2,
          toPage: 2,
          change: "changed",
          lines: [
            { op: "del", text: "Old second page" },
            { op: "add", text: "Entirely new words" },
          ],
        },
      ]);
    } finally {
      compareLimits.maxAlignedPages = limit;
    }
  });

  it("gives up a diff past its bound of edits: every old line removed, every new line added", () => {
    const edits = compareLimits.maxEditLength;
    compareLimits.maxEditLength = 1;
    try {
      expect(diffLines(["a", "b"], ["c", "d"])).toEqual([
        { op: "del", text: "a" },
        { op: "del", text: "b" },
        { op: "add", text: "c" },
        { op: "add", text: "d" },
      ]);
    } finally {
      compareLimits.maxEditLength = edits;
    }
  });
});
