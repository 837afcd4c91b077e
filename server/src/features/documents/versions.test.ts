import { and, eq } from "drizzle-orm";
import { auditEvents, documentFiles, documentVersions, fileChunks, notifications } from "../../db/schema";
import { paperPdf } from "../../testing/board-pack-fixtures";
import { samplePdf, samplePng, sampleFiles } from "../../testing/sample-files";
import { useTestContext } from "../../testing/test-context";
import { versionFixtures } from "../../testing/version-fixtures";

const ctx = useTestContext();
const { api, upload, uploadPdf, replace, history, downloadVersion, download, storedRows } = versionFixtures(ctx);

const board = () => ctx.board("Acme Holdings", { firstName: "Fay", lastName: "Founder" });
const same = (a: unknown, b: Buffer) => Buffer.compare(a as Buffer, b) === 0;

describe("replacing a paper with a new version", () => {
  it("keeps every version: the paper answers the latest (version, replacedAt, pages), the history all of them", async () => {
    const { founder, member } = await board();
    const ann = await member("member", { firstName: "Ann", lastName: "Director" });
    const first = await uploadPdf(founder, "Budget.pdf", "Budget v1", 3);
    const uploaded = await api().get(`/api/documents/${first.id}`).set("Authorization", founder.bearer);
    expect(uploaded.body).toMatchObject({ version: 1, replacedAt: null, pages: 3, readingMinutes: 6 });

    ctx.clock.advance(60 * 60 * 1000);
    const second = await uploadPdf(ann, "scratch.pdf", "unused", 1);
    const v2 = await paperPdf("Budget v2", 45);
    const replaced = await replace(founder, first.id, "Figures restated after the audit", "budget-final.pdf", v2);
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(201);
    expect(replaced.body).toMatchObject({
      id: first.id,
      name: "Budget.pdf",
      version: 2,
      replacedAt: ctx.clock.now().toISOString(),
      pages: 45,
      readingMinutes: 90,
      fileSize: v2.length,
      fileType: "application/pdf",
      uploadedBy: founder.id,
    });

    // The latest version wherever the paper is listed: the company's documents, the library, the paper itself.
    const listed = await api().get("/api/documents").set("Authorization", ann.bearer);
    expect(listed.body.find((document: { id: number }) => document.id === first.id)).toMatchObject({ version: 2, pages: 45 });
    const library = await api().get(`/api/companies/${replaced.body.companyId}/documents`).set("Authorization", ann.bearer);
    expect(library.body.find((document: { id: number }) => document.id === first.id)).toMatchObject({
      version: 2,
      replacedAt: replaced.body.replacedAt,
    });
    expect(library.body.find((document: { id: number }) => document.id === second.id)).toMatchObject({ version: 1, replacedAt: null });

    expect(same((await download(ann, first.id)).body, v2)).toBe(true);
    expect(same((await downloadVersion(ann, first.id, 1)).body, first.bytes)).toBe(true);
    expect(same((await downloadVersion(ann, first.id, 2)).body, v2)).toBe(true);
    expect((await downloadVersion(ann, first.id, 3)).status).toBe(404);

    ctx.clock.advance(60_000);
    const v3 = sampleFiles.docx();
    const third = await replace(founder, first.id, "Now as a Word file", "budget.docx", v3);
    expect(third.status).toBe(201);
    // The name keeps its words and takes the new file's extension; a Word file has no page count.
    expect(third.body).toMatchObject({ name: "Budget.docx", version: 3, pages: null, readingMinutes: null });
    const versions = await history(ann, first.id);
    expect(versions.status).toBe(200);
    expect(versions.body).toEqual([
      {
        version: 3,
        uploadedBy: "Fay Founder",
        uploadedAt: ctx.clock.now().toISOString(),
        note: "Now as a Word file",
        fileSize: v3.length,
        fileType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        pages: null,
      },
      expect.objectContaining({ version: 2, note: "Figures restated after the audit", pages: 45, fileType: "application/pdf" }),
      expect.objectContaining({ version: 1, uploadedBy: "Fay Founder", note: null, pages: 3, fileSize: first.bytes.length }),
    ]);
    // An earlier version is served as what it was, under the paper's name with its own extension.
    const old = await downloadVersion(ann, first.id, 1);
    expect(old.headers["content-type"]).toBe("application/pdf");
    expect(old.headers["content-disposition"]).toContain('filename="Budget.pdf"');
  });

  it("lets the paper's uploader replace it (not an observer, nor another member), and founders and admins any paper", async () => {
    const { founder, member } = await board();
    const ann = await member("member");
    const bob = await member("member");
    const admin = await member("admin");
    const obi = await member("observer");
    const paper = await upload(ann, "Plan.txt", Buffer.from("first\n"));
    expect((await replace(bob, paper.id, "Mine now", "Plan.txt", Buffer.from("bob\n"))).status).toBe(403);
    const observer = await replace(obi, paper.id, "Mine now", "Plan.txt", Buffer.from("obi\n"));
    expect(observer.status).toBe(403);
    expect(observer.body).toEqual({ message: "Observers cannot replace papers" });
    expect((await replace(ann, paper.id, "Second", "Plan.txt", Buffer.from("second\n"))).body).toMatchObject({ version: 2 });
    expect((await replace(admin, paper.id, "Third", "Plan.txt", Buffer.from("third\n"))).body).toMatchObject({ version: 3 });
    expect((await replace(founder, paper.id, "Fourth", "Plan.txt", Buffer.from("fourth\n"))).body).toMatchObject({ version: 4 });
    expect((await history(obi, paper.id)).body.map((version: { version: number }) => version.version)).toEqual([4, 3, 2, 1]);
  });

  it("audits the replacement and tells the rest of the board", async () => {
    const { founder, company, member } = await board();
    const ann = await member("member");
    const paper = await upload(founder, "Risk register.pdf", samplePdf());
    const note = "Added the cyber risk";
    expect((await replace(founder, paper.id, note, "register.pdf", await paperPdf("Risks", 2))).status).toBe(201);
    const [audit] = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.companyId, company.id), eq(auditEvents.action, "document.replaced")));
    expect(audit).toMatchObject({
      actorId: founder.id,
      targetType: "document",
      targetId: String(paper.id),
      details: { name: "Risk register.pdf", version: 2, note },
    });
    const told = await ctx.db.select().from(notifications).where(eq(notifications.userId, ann.id));
    expect(told.map((notification) => notification.title)).toContain("New version: Risk register.pdf");
    expect(
      await ctx.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, founder.id), eq(notifications.title, "New version: Risk register.pdf"))),
    ).toEqual([]);
  });

  it("answers a version in byte ranges, and lists the history in one query whatever its length", async () => {
    const { founder } = await board();
    const paper = await upload(founder, "Log.txt", Buffer.from("version one, with some words\n"));
    await replace(founder, paper.id, "Two", "Log.txt", Buffer.from("version two\n"));
    const part = await downloadVersion(founder, paper.id, 1, { Range: "bytes=8-10" });
    expect(part.status).toBe(206);
    expect(part.headers["content-range"]).toBe("bytes 8-10/29");
    expect((part.body as Buffer).toString()).toBe("one");
    expect((await downloadVersion(founder, paper.id, 1, { Range: "bytes=29-" })).status).toBe(416);
    await ctx.notificationsHeard();
    await history(founder, paper.id);
    const twoVersions = await ctx.countQueries(() => history(founder, paper.id));
    for (const n of [3, 4, 5]) await replace(founder, paper.id, `Take ${n}`, "Log.txt", Buffer.from(`version ${n}\n`));
    // Warmed again once their notifications are heard: the writes in between may have sent the caller's session to be
    // read afresh.
    await ctx.notificationsHeard();
    expect((await history(founder, paper.id)).body).toHaveLength(5);
    expect(await ctx.countQueries(() => history(founder, paper.id))).toBe(twoVersions);
  });

  it("keeps an old version's bytes that were stored whole, and deleting the paper removes every version's bytes", async () => {
    const { founder } = await board();
    const before = await storedRows();
    const oldBytes = Buffer.from("stored whole, before chunks\n");
    const paper = await upload(founder, "Legacy.txt", oldBytes);
    // As a paper stored before files were chunked: its bytes in document_files, its first version's row without a place.
    const [file] = await ctx.db.select().from(documentFiles).where(eq(documentFiles.documentId, paper.id));
    await ctx.db.delete(fileChunks).where(eq(fileChunks.storageKey, file!.storageKey!));
    await ctx.db.update(documentFiles).set({ bytes: oldBytes, storageKey: null }).where(eq(documentFiles.documentId, paper.id));
    await ctx.db.update(documentVersions).set({ storageKey: null }).where(eq(documentVersions.documentId, paper.id));
    expect(same((await downloadVersion(founder, paper.id, 1)).body, oldBytes)).toBe(true);

    expect((await replace(founder, paper.id, "Rewritten", "Legacy.txt", Buffer.from("new\n"))).status).toBe(201);
    expect((await replace(founder, paper.id, "Again", "scan.png", samplePng())).body).toMatchObject({ name: "Legacy.png", version: 3 });
    expect(same((await downloadVersion(founder, paper.id, 1)).body, oldBytes)).toBe(true);
    expect((await downloadVersion(founder, paper.id, 2)).body.toString()).toBe("new\n");
    expect(same((await download(founder, paper.id)).body, samplePng())).toBe(true);

    expect((await api().delete(`/api/documents/${paper.id}`).set("Authorization", founder.bearer)).status).toBe(204);
    expect(await storedRows()).toEqual(before);
  });
});
