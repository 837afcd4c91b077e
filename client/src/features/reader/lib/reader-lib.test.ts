import { clearMarks, markText } from "@/features/reader/lib/text-marks";
import { selectedQuote } from "@/features/reader/lib/selection";
import { pageForKey } from "@/features/reader/lib/reader-keys";

function textLayer(...spans: string[]) {
  const page = document.createElement("div");
  page.dataset.page = "4";
  const layer = document.createElement("div");
  for (const text of spans) layer.append(Object.assign(document.createElement("span"), { textContent: text }));
  page.append(layer);
  document.body.append(page);
  return { page, layer };
}

afterEach(() => document.body.replaceChildren());

describe("marks in a page's text layer", () => {
  it("finds words across spans, whatever their case and spacing, and takes the marks out again", () => {
    const { layer } = textLayer("The board ", "notes the Risk", " register.");
    const marks = markText(layer, "risk  register", "hit");
    expect(marks).toHaveLength(1);
    expect(marks[0]!.map((mark) => mark.textContent)).toEqual(["Risk", "register"]);
    expect(layer.textContent).toBe("The board notes the Risk register.");

    clearMarks(layer, "hit");
    expect(layer.querySelectorAll("mark")).toHaveLength(0);
    expect([...layer.querySelectorAll("span")].map((span) => span.childNodes.length)).toEqual([1, 1, 1]);
  });

  it("marks each occurrence, in order, up to the limit", () => {
    const { layer } = textLayer("cash, cash and more cash");
    expect(markText(layer, "cash", "hit", 2).map((marks) => marks[0]!.textContent)).toEqual(["cash", "cash"]);
    expect(layer.querySelectorAll("mark")).toHaveLength(2);
  });
});

describe("a selection as a note's quote", () => {
  it("is the selected words of one page, spaces squashed", () => {
    const { page, layer } = textLayer("Revenue   grew\n in Q3");
    const range = document.createRange();
    range.setStart(layer.firstChild!.firstChild!, 0);
    range.setEnd(layer.firstChild!.firstChild!, 16);
    const selection = window.getSelection()!;
    selection.removeAllRanges();
    selection.addRange(range);
    expect(selectedQuote(selection, page.parentElement)).toEqual({ page: 4, quote: "Revenue grew" });
    // Outside the reader's pages: no quote.
    expect(selectedQuote(selection, document.createElement("div"))).toBeNull();
    selection.removeAllRanges();
    expect(selectedQuote(selection, page.parentElement)).toBeNull();
  });
});

describe("paging keys", () => {
  it("go a page on or back, to the first or the last, within the document", () => {
    expect(pageForKey("PageDown", 3, 10)).toBe(4);
    expect(pageForKey("PageDown", 10, 10)).toBe(10);
    expect(pageForKey("PageUp", 1, 10)).toBe(1);
    expect(pageForKey("Home", 7, 10)).toBe(1);
    expect(pageForKey("End", 2, 10)).toBe(10);
    expect(pageForKey("a", 2, 10)).toBeNull();
  });
});
