import request from "supertest";
import type { SearchPage } from "../../../shared/search";
import { textReadsSettled } from "../features/documents/paper-text.service";
import { zip } from "./sample-files";
import type { TestContext } from "./test-context";

// What the search tests share: asking the search as a user, and papers whose text says what a test needs.

/** A Word (OOXML) document of these paragraphs. */
export function docxOf(paragraphs: string[]): Buffer {
  const body = paragraphs.map((text) => `<w:p><w:r><w:t>${text}</w:t></w:r></w:p>`).join("");
  return zip({
    "[Content_Types].xml":
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    "word/document.xml": `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
  });
}

export function searchFixtures(ctx: TestContext) {
  /** `GET /api/search` as the user; papers' texts still being read are waited for first. */
  async function searchAs(user: { bearer: string }, query: Record<string, string | number>) {
    await textReadsSettled();
    return request(ctx.app).get("/api/search").query(query).set("Authorization", user.bearer);
  }

  /** The answer of a search that must succeed. */
  async function found(user: { bearer: string }, query: Record<string, string | number>): Promise<SearchPage> {
    const response = await searchAs(user, query);
    if (response.status !== 200) throw new Error(`search failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body as SearchPage;
  }

  /** The results' kinds and titles, in order. */
  const titlesOf = (page: SearchPage) => page.results.map((result) => `${result.kind}: ${result.title}`);

  return { searchAs, found, titlesOf };
}
