import { and, eq, sql } from "drizzle-orm";
import { maxNoteTextLength, maxNotesPerPaper, noteTextTooLongMessage, type PaperNote } from "../../../../shared/paper-reading";
import { memberships, paperNotes } from "../../db/schema";
import { addMember } from "../../testing/factories";
import { readingFixtures } from "../../testing/reading-fixtures";
import { useTestContext, type SignedUp } from "../../testing/test-context";
import { openNote } from "./note-seal";
import { tooManyNotesMessage } from "./notes.service";

const ctx = useTestContext();
const { as, board } = readingFixtures(ctx);
let platformAdmin: SignedUp;
beforeAll(async () => {
  // The first account on an empty database administers the platform.
  platformAdmin = await ctx.signUp({ firstName: "Pat", lastName: "Platform" });
});

const write = (user: SignedUp, documentId: number, body: object) => as(user).post(`/api/documents/${documentId}/notes`, body);
async function noteOf(user: SignedUp, documentId: number, body: object): Promise<PaperNote> {
  const response = await write(user, documentId, body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as PaperNote;
}

describe("a director's notes", () => {
  it("are written on a page of a version, listed by page, changed and deleted by their author", async () => {
    const { ann, papers } = await board("Notes Ltd");
    const second = await noteOf(ann, papers.budget, { version: 1, page: 3, text: "  Ask about capex  " });
    const first = await noteOf(ann, papers.budget, { version: 1, page: 1, quote: "Revenue grew 4%", text: "Really?" });
    expect(first).toEqual({
      id: first.id,
      documentId: papers.budget,
      version: 1,
      page: 1,
      quote: "Revenue grew 4%",
      text: "Really?",
      unplaced: false,
      createdAt: ctx.clock.now().toISOString(),
      updatedAt: ctx.clock.now().toISOString(),
    });
    expect(second.text).toBe("Ask about capex");
    expect(second.quote).toBeNull();
    const listed = await as(ann).get(`/api/documents/${papers.budget}/notes`);
    expect(listed.status).toBe(200);
    expect(listed.body.map((note: PaperNote) => note.id)).toEqual([first.id, second.id]);

    ctx.clock.advance(60_000);
    const changed = await as(ann).patch(`/api/notes/${first.id}`, { text: "Check the base year" });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ ...first, text: "Check the base year", updatedAt: ctx.clock.now().toISOString() });
    expect((await as(ann).delete(`/api/notes/${second.id}`)).status).toBe(204);
    expect((await as(ann).get(`/api/documents/${papers.budget}/notes`)).body).toEqual([changed.body]);
  });

  it("are their author's alone: another member, an admin or a platform admin sees none and gets 404 for each", async () => {
    const { founder, admin, ann, ben, company, papers } = await board("Private Notes Ltd");
    await addMember(ctx.db, company.id, platformAdmin.id, "admin");
    const note = await noteOf(ann, papers.plan, { version: 1, page: 2, text: "Mine alone" });
    for (const other of [ben, admin, founder, platformAdmin]) {
      expect((await as(other).get(`/api/documents/${papers.plan}/notes`)).body).toEqual([]);
      for (const response of [
        await as(other).patch(`/api/notes/${note.id}`, { text: "Taken over" }),
        await as(other).delete(`/api/notes/${note.id}`),
      ]) {
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ message: "Note not found" });
      }
    }
    expect((await as(ann).get(`/api/documents/${papers.plan}/notes`)).body).toEqual([note]);
    // An author who has left the board no longer reaches their notes on its papers.
    await ctx.db.delete(memberships).where(and(eq(memberships.userId, ann.id), eq(memberships.companyId, company.id)));
    expect((await as(ann).patch(`/api/notes/${note.id}`, { text: "Still mine?" })).status).toBe(404);
  });

  it("are refused on a page the version lacks (400), a version the paper lacks (404), over 10,000 characters (400)", async () => {
    const { ann, papers } = await board("Bad Notes Ltd");
    const beyond = await write(ann, papers.plan, { version: 1, page: 3, text: "Nowhere" });
    expect(beyond.status).toBe(400);
    expect(beyond.body).toEqual({ message: "This version has 2 pages", errors: [{ path: "page", message: "This version has 2 pages" }] });
    expect((await write(ann, papers.plan, { version: 2, page: 1, text: "Not yet" })).status).toBe(404);
    const long = await write(ann, papers.plan, { version: 1, page: 1, text: "x".repeat(maxNoteTextLength + 1) });
    expect(long.status).toBe(400);
    expect(long.body.message).toBe(noteTextTooLongMessage);
    expect((await write(ann, papers.plan, { version: 1, page: 1, text: "x".repeat(maxNoteTextLength) })).status).toBe(201);
    expect((await write(ann, papers.plan, { version: 1, page: 1, text: "bell\u0007" })).status).toBe(400);
    expect((await write(ann, papers.plan, { version: 1, page: 1, text: "   " })).status).toBe(400);
    const note = (await as(ann).get(`/api/documents/${papers.plan}/notes`)).body[0] as PaperNote;
    expect((await as(ann).patch(`/api/notes/${note.id}`, { text: "y".repeat(maxNoteTextLength + 1) })).status).toBe(400);
  });

  it(`are at most ${maxNotesPerPaper} per author and paper (409)`, async () => {
    const { ann, ben, company, papers } = await board("Many Notes Ltd");
    const now = ctx.clock.now();
    await ctx.db.insert(paperNotes).values(
      Array.from({ length: maxNotesPerPaper - 1 }, () => ({
        userId: ann.id,
        companyId: company.id,
        documentId: papers.plan,
        version: 1,
        page: 1,
        sealed: "v1.x.x.x",
        createdAt: now,
        updatedAt: now,
      })),
    );
    expect((await write(ann, papers.plan, { version: 1, page: 1, text: "The last one" })).status).toBe(201);
    const refused = await write(ann, papers.plan, { version: 1, page: 2, text: "One too many" });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ message: tooManyNotesMessage });
    // Another author, or another paper, is counted apart.
    expect((await write(ben, papers.plan, { version: 1, page: 1, text: "Mine" })).status).toBe(201);
    expect((await write(ann, papers.budget, { version: 1, page: 1, text: "Elsewhere" })).status).toBe(201);
  });

  it("are stored sealed: the table holds no word of them, and another author's key does not open them", async () => {
    const { ann, papers } = await board("Sealed Ltd");
    const words = "Sealed-secret-capex-question";
    const note = await noteOf(ann, papers.budget, { version: 1, page: 2, quote: "Quoted-secret-words", text: words });
    const stored = await ctx.db.execute(sql`select * from paper_notes where id = ${note.id}`);
    const row = JSON.stringify((stored as unknown as { rows: unknown[] }).rows);
    expect(row).not.toContain("Sealed-secret");
    expect(row).not.toContain("Quoted-secret");
    expect(row).toMatch(/"sealed":"v1\./);
    // The same words under another author's id do not open: the row moved to Ben is unreadable, not Ann's words.
    const [sealedRow] = await ctx.db.select().from(paperNotes).where(eq(paperNotes.id, note.id));
    expect(openNote(ctx.deps.appSecret, ann.id, sealedRow!.sealed).text).toBe(words);
    expect(() => openNote(ctx.deps.appSecret, ann.id + 1, sealedRow!.sealed)).toThrow(/could not be decrypted/);
  });
});
