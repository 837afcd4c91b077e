import { highlightWords, queryWords } from "@/features/search/lib/query-words";
import { searchFromAddress, searchPageHref, searchText } from "@/features/search/lib/search-address";
import { markedWords, snippetParts } from "@/features/search/lib/snippet";

describe("a snippet", () => {
  it("is text with only <mark> and </mark> read as markup, its escapes undone once", () => {
    expect(snippetParts("a &lt;b&gt; <mark>c &amp; d</mark> &amp;lt; &quot;e&quot; &#39;f <mark>g</mark>")).toEqual([
      { text: "a <b> ", marked: false },
      { text: "c & d", marked: true },
      { text: ' &lt; "e" \'f ', marked: false },
      { text: "g", marked: true },
    ]);
    expect(snippetParts("<b>bold</b> <img src=x onerror=alert(1)>")).toEqual([
      { text: "<b>bold</b> <img src=x onerror=alert(1)>", marked: false },
    ]);
  });

  it("names its marked words once each", () => {
    expect(markedWords("<mark>Meeting</mark> and <mark>meeting</mark>, <mark>board</mark>")).toEqual(["meeting", "board"]);
  });
});

describe("the words a reader highlights", () => {
  it("are the query's words without its syntax or its excluded words", () => {
    expect(queryWords('"cash flow" or revenue -costs OR région 2026')).toEqual(["cash", "flow", "revenue", "région", "2026"]);
  });

  it("add the forms the snippet marked, each once", () => {
    expect(highlightWords("meetings Revenue", "<mark>meeting</mark> <mark>revenue</mark>")).toEqual(["meetings", "revenue", "meeting"]);
  });
});

describe("the search page's address", () => {
  it("reads what parses and drops the rest", () => {
    expect(searchFromAddress("q=%20budget%09&scope=all&kind=minutes&meetingId=40&from=2026-01-01&to=2026-03-31")).toEqual({
      q: "budget",
      scope: "all",
      kind: "minutes",
      meetingId: 40,
      from: "2026-01-01",
      to: "2026-03-31",
    });
    expect(searchFromAddress("q=x&scope=mine&kind=letters&meetingId=99999999999&from=yesterday")).toEqual({
      q: "x",
      scope: undefined,
      kind: undefined,
      meetingId: undefined,
      from: undefined,
      to: undefined,
    });
  });

  it("is written with only what is set", () => {
    expect(searchPageHref({ q: "cash flow", kind: "document" })).toBe("/search?q=cash+flow&kind=document");
    expect(searchPageHref({ q: "" })).toBe("/search");
    expect(searchText(`a\u0000b ${"z".repeat(600)}`)).toHaveLength(500);
  });
});
