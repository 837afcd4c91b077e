import { eq } from "drizzle-orm";
import request from "supertest";
import { documentPageTexts, documents, documentVersions } from "../db/schema";
import { scheduleMeeting } from "./factories";
import { linesPdf, versionFixtures } from "./version-fixtures";
import type { SignedUp, TestContext } from "./test-context";

// What the reading and notes tests share: a board with a meeting whose agenda carries papers of known page counts,
// new versions of a paper, and the calls.

export function readingFixtures(ctx: TestContext) {
  const api = () => request(ctx.app);
  const { upload } = versionFixtures(ctx);
  const as = (user: SignedUp) => ({
    get: (path: string) => api().get(path).set("Authorization", user.bearer),
    post: (path: string, body?: object) => api().post(path).set("Authorization", user.bearer).send(body),
    patch: (path: string, body: object) => api().patch(path).set("Authorization", user.bearer).send(body),
    delete: (path: string) => api().delete(path).set("Authorization", user.bearer),
  });

  /**
   * A paper in the owner's company: a PDF of `pages` pages, or (null) a text file, whose page count is unknown. Real
   * files, so the text Quorum reads from them in the background agrees with what the test expects.
   */
  async function paper(owner: SignedUp, name: string, pages: number | null): Promise<number> {
    if (pages === null) return (await upload(owner, "letter.txt", Buffer.from(`${name}\n`), name)).id;
    const lines = Array.from({ length: pages }, (_, index) => [`${name}, page ${index + 1}`]);
    return (await upload(owner, "paper.pdf", await linesPdf(lines), name)).id;
  }

  /** A new latest version of a paper, with its pages' text when given, as replacing its file would leave it. */
  async function newVersion(documentId: number, pages: number, texts?: string[]): Promise<number> {
    const [current] = await ctx.db.select().from(documentVersions).where(eq(documentVersions.documentId, documentId));
    const [latest] = await ctx.db.select({ version: documents.version }).from(documents).where(eq(documents.id, documentId));
    const version = latest!.version + 1;
    await ctx.db.insert(documentVersions).values({
      documentId,
      version,
      fileType: current!.fileType,
      fileSize: current!.fileSize,
      pages,
      note: "Revised",
      uploadedAt: ctx.clock.now(),
      textStatus: texts ? "done" : "pending",
    });
    await ctx.db.update(documents).set({ version, pages, replacedAt: ctx.clock.now() }).where(eq(documents.id, documentId));
    if (texts) await pageTexts(documentId, version, texts);
    return version;
  }

  async function pageTexts(documentId: number, version: number, texts: string[]) {
    await ctx.db.insert(documentPageTexts).values(texts.map((text, index) => ({ documentId, version, page: index + 1, text })));
  }

  async function putAgenda(user: SignedUp, meetingId: number, documentIds: number[][]) {
    const items = documentIds.map((ids, index) => ({ title: `Item ${index + 1}`, durationMinutes: 10, documentIds: ids }));
    const put = await api().put(`/api/meetings/${meetingId}/agenda`).set("Authorization", user.bearer).send({ items });
    if (put.status !== 200) throw new Error(`agenda failed: ${put.status} ${JSON.stringify(put.body)}`);
  }

  /**
   * A board: founder Fay, admin Ada, members Ann and Ben, observer Oscar; a meeting Ann scheduled with Ben and Oscar
   * (participants unless `participants` says otherwise) whose agenda carries papers of 4 and 2 pages.
   */
  async function board(name: string, options: { participants?: "none" } = {}) {
    const { founder, company, member } = await ctx.board(name, { firstName: "Fay", lastName: "Founder" });
    const admin = await member("admin", { firstName: "Ada", lastName: "Admin" });
    const ann = await member("member", { firstName: "Ann", lastName: "Author" });
    const ben = await member("member", { firstName: "Ben", lastName: "Board" });
    const oscar = await member("observer", { firstName: "Oscar", lastName: "Observer" });
    const participants = options.participants === "none" ? [] : [ann.id, ben.id, oscar.id];
    const meetingId = await scheduleMeeting(ctx.app, ann, new Date("2026-07-01T10:00:00.000Z"), { title: `${name} board`, participants });
    const budget = await paper(founder, "Budget.pdf", 4);
    const plan = await paper(founder, "Plan.pdf", 2);
    await putAgenda(founder, meetingId, [[budget], [plan]]);
    return { founder, company, member, admin, ann, ben, oscar, meetingId, papers: { budget, plan } };
  }

  return { api, as, board, paper, newVersion, pageTexts, putAgenda };
}
