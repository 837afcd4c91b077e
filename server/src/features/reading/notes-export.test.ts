import { readPack } from "../../testing/board-pack-fixtures";
import { readingFixtures } from "../../testing/reading-fixtures";
import { useTestContext } from "../../testing/test-context";

const ctx = useTestContext();
const { as, board, paper } = readingFixtures(ctx);

const binary = (
  response: { on: (event: string, listener: (chunk?: Buffer) => void) => void },
  done: (error: null, body: Buffer) => void,
) => {
  const chunks: Buffer[] = [];
  response.on("data", (chunk) => chunks.push(chunk!));
  response.on("end", () => done(null, Buffer.concat(chunks)));
};

describe("GET /api/meetings/:id/notes/export", () => {
  it("gives the caller's own notes on the meeting's papers as Markdown, by paper and page, as an attachment", async () => {
    const { founder, ann, ben, meetingId, papers } = await board("Export Ltd");
    const elsewhere = await paper(founder, "Elsewhere.pdf", 1);
    const note = (documentId: number, page: number, text: string, quote?: string) =>
      as(ann).post(`/api/documents/${documentId}/notes`, { version: 1, page, text, quote });
    await note(papers.plan, 2, "Plan, page two");
    await note(papers.budget, 3, "Budget, page three", "Capex *doubles*");
    await note(papers.budget, 1, "Budget, page one");
    await note(papers.budget, 3, "Budget, page three again");
    await note(elsewhere, 1, "Not on this meeting");
    await as(ben).post(`/api/documents/${papers.budget}/notes`, { version: 1, page: 1, text: "Ben's own" });

    const response = await as(ann).get(`/api/meetings/${meetingId}/notes/export?format=md`);
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("text/markdown; charset=utf-8");
    expect(response.headers["content-disposition"]).toMatch(/^attachment; filename="My notes - Export Ltd board\.md"/);
    expect(response.text).toBe(
      [
        "# My notes: Export Ltd board",
        "",
        "## Budget.pdf (version 1)",
        "",
        "### Page 1",
        "",
        "Budget, page one",
        "",
        "### Page 3",
        "",
        "> Capex \\*doubles\\*",
        "",
        "Budget, page three",
        "",
        "Budget, page three again",
        "",
        "## Plan.pdf (version 1)",
        "",
        "### Page 2",
        "",
        "Plan, page two",
        "",
      ].join("\n"),
    );
    // Markdown is the default.
    expect((await as(ann).get(`/api/meetings/${meetingId}/notes/export`)).text).toBe(response.text);
    expect((await as(ben).get(`/api/meetings/${meetingId}/notes/export`)).text).not.toContain("Budget, page");
  });

  it("gives them as a PDF when asked, and refuses another format", async () => {
    const { ann, meetingId, papers } = await board("Pdf Export Ltd");
    await as(ann).post(`/api/documents/${papers.plan}/notes`, { version: 1, page: 1, text: "Question for the CFO" });
    const response = await as(ann).get(`/api/meetings/${meetingId}/notes/export?format=pdf`).buffer(true).parse(binary);
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("application/pdf");
    expect(response.headers["content-disposition"]).toMatch(/^attachment; filename="My notes - Pdf Export Ltd board\.pdf"/);
    const { pages } = await readPack(response.body as Buffer);
    expect(pages[0]!.text).toContain("My notes: Pdf Export Ltd board");
    expect(pages[0]!.text).toContain("Plan.pdf (version 1)");
    expect(pages[0]!.text).toContain("Page 1");
    expect(pages[0]!.text).toContain("Question for the CFO");
    const refused = await as(ann).get(`/api/meetings/${meetingId}/notes/export?format=docx`);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe("Format must be md or pdf");
  });
});
