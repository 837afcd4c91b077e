import { and, count, eq } from "drizzle-orm";
import request from "supertest";
import { auditEvents, documentFiles, documents, meetingParticipants, meetings, resolutionDocuments, resolutions } from "../../db/schema";
import { meetingContent } from "../../testing/factories";
import { useTestContext, type SignedUp } from "../../testing/test-context";

const ctx = useTestContext();

const api = () => request(ctx.app);
const day = 24 * 60 * 60 * 1000;
const board = (name = "Acme Holdings") => ctx.board(name, { firstName: "Fay", lastName: "Founder" });

/** A file document as the upload will store it: the metadata row and its bytes apart. */
async function fileDocument(companyId: number, uploadedBy: number, name = "Q2 accounts.pdf"): Promise<number> {
  const [row] = await ctx.db
    .insert(documents)
    .values({ companyId, name, fileType: "application/pdf", fileSize: 4, category: "Financial", uploadedBy })
    .returning({ id: documents.id });
  await ctx.db.insert(documentFiles).values({ documentId: row!.id, bytes: Buffer.from("%PDF") });
  return row!.id;
}

function meetingBody(content: unknown) {
  return { category: "Meeting", content: typeof content === "string" ? content : JSON.stringify(content) };
}
const inThreeDays = () => new Date(ctx.clock.now().getTime() + 3 * day);

async function scheduleMeeting(user: SignedUp, participants: string[] = []): Promise<number> {
  const response = await api()
    .post("/api/documents")
    .set("Authorization", user.bearer)
    .send(meetingBody(meetingContent(inThreeDays(), { participants })));
  if (response.status !== 201) throw new Error(`scheduling failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.id;
}

async function rowsOf(documentId: number) {
  const [docs] = await ctx.db.select({ n: count() }).from(documents).where(eq(documents.id, documentId));
  const [files] = await ctx.db.select({ n: count() }).from(documentFiles).where(eq(documentFiles.documentId, documentId));
  const [meets] = await ctx.db.select({ n: count() }).from(meetings).where(eq(meetings.documentId, documentId));
  const [parts] = await ctx.db.select({ n: count() }).from(meetingParticipants).where(eq(meetingParticipants.meetingId, documentId));
  return { documents: docs!.n, files: files!.n, meetings: meets!.n, participants: parts!.n };
}

const deleteAs = (user: SignedUp, id: number | string) => api().delete(`/api/documents/${id}`).set("Authorization", user.bearer);

describe("POST /api/documents: one handler, dispatched on the category", () => {
  it("stores a file for a non-Meeting category, and answers 403 to an observer first", async () => {
    const { founder, member } = await board();
    const obi = await member("observer");
    const file = {
      name: "Budget",
      fileType: "application/pdf",
      fileSize: 4,
      content: "data:application/pdf;base64,JVBERi0xLjQK",
      category: "Financial",
    };
    const response = await api().post("/api/documents").set("Authorization", founder.bearer).send(file);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ name: "Budget", fileType: "application/pdf", fileSize: 9, category: "Financial", hasFile: true });
    const observer = await api().post("/api/documents").set("Authorization", obi.bearer).send(file);
    expect(observer.status).toBe(403);
    expect(observer.body).toEqual({ message: "Observers cannot upload documents" });
  });

  it("refuses an observer before reading the body: a meeting that would not validate is still a 403", async () => {
    const { member } = await board();
    const obi = await member("observer");
    for (const [body, message] of [
      [meetingBody("{not json"), "Observers cannot schedule meetings"],
      [{ category: "Meeting" }, "Observers cannot schedule meetings"],
      [{ category: "Financial" }, "Observers cannot upload documents"],
      [{}, "Observers cannot upload documents"],
    ] as const) {
      const response = await api().post("/api/documents").set("Authorization", obi.bearer).send(body);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ message });
    }
  });

  it("schedules a meeting whatever spaces surround its category, and validates the body for a member", async () => {
    const { founder } = await board();
    const spaced = await api()
      .post("/api/documents")
      .set("Authorization", founder.bearer)
      .send({ ...meetingBody(meetingContent(inThreeDays())), category: "  Meeting " });
    expect(spaced.status).toBe(201);
    expect(spaced.body).toMatchObject({ category: "Meeting", name: "Meeting: Q3 Board Meeting" });

    const noContent = await api().post("/api/documents").set("Authorization", founder.bearer).send({ category: "Meeting" });
    expect(noContent.status).toBe(400);
    expect(noContent.body.errors).toContainEqual({ path: "content", message: "Content is required" });
  });

  it("answers 401 signed out, before reading the body", async () => {
    const response = await api().post("/api/documents").set("Content-Type", "application/json").send('{"category": ');
    expect(response.status).toBe(401);
  });
});

describe("DELETE /api/documents/:id", () => {
  it("lets the uploader delete their file document: the document and its file go in one go, and it is audited", async () => {
    const { company, member } = await board();
    const ann = await member("member");
    const id = await fileDocument(company.id, ann.id);
    const [resolution] = await ctx.db
      .insert(resolutions)
      .values({
        companyId: company.id,
        title: "Approve accounts",
        description: "x",
        type: "Ordinary",
        deadline: inThreeDays(),
        createdBy: ann.id,
      })
      .returning({ id: resolutions.id });
    await ctx.db.insert(resolutionDocuments).values({ resolutionId: resolution!.id, documentId: id });

    const response = await deleteAs(ann, id);
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect(await rowsOf(id)).toEqual({ documents: 0, files: 0, meetings: 0, participants: 0 });
    expect(await ctx.db.select().from(resolutionDocuments).where(eq(resolutionDocuments.documentId, id))).toEqual([]);
    const [audit] = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "document.deleted"), eq(auditEvents.targetId, String(id))));
    expect(audit).toMatchObject({ actorId: ann.id, companyId: company.id, targetType: "document", details: { name: "Q2 accounts.pdf" } });
    expect((await api().get(`/api/documents/${id}`).set("Authorization", ann.bearer)).status).toBe(404);
    expect((await deleteAs(ann, id)).status).toBe(404);
  });

  it("lets a founder or an admin delete anyone's file document", async () => {
    const { founder, company, member } = await board();
    const ann = await member("member");
    const ada = await member("admin");
    for (const deleter of [founder, ada]) {
      const id = await fileDocument(company.id, ann.id);
      const response = await deleteAs(deleter, id);
      expect(response.status).toBe(204);
      expect((await rowsOf(id)).documents).toBe(0);
    }
  });

  it("forbids a member who did not upload it, and an observer even if they did (403, nothing deleted)", async () => {
    const { founder, company, member } = await board();
    const ann = await member("member");
    const obi = await member("observer");
    const founders = await fileDocument(company.id, founder.id);
    const notTheirs = await deleteAs(ann, founders);
    expect(notTheirs.status).toBe(403);
    expect(notTheirs.body).toEqual({ message: "Only founders, admins and the uploader can delete a document" });

    // Uploaded while a member, since made an observer.
    const observers = await fileDocument(company.id, obi.id);
    const observer = await deleteAs(obi, observers);
    expect(observer.status).toBe(403);
    expect(observer.body).toEqual({ message: "Observers cannot delete documents" });
    expect(await rowsOf(founders)).toMatchObject({ documents: 1, files: 1 });
    expect(await rowsOf(observers)).toMatchObject({ documents: 1, files: 1 });
  });

  it("refuses a meeting with 409, whoever asks, and leaves the whole meeting in place", async () => {
    const { founder, member } = await board();
    const ann = await member("member");
    const obi = await member("observer");
    const id = await scheduleMeeting(founder, [String(ann.id)]);
    const before = await rowsOf(id);
    expect(before).toEqual({ documents: 1, files: 0, meetings: 1, participants: 1 });
    for (const user of [founder, ann, obi]) {
      const response = await deleteAs(user, id);
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ message: "A meeting cannot be deleted as a document: cancel the meeting instead" });
    }
    expect(await rowsOf(id)).toEqual(before);
    expect((await api().get(`/api/documents/${id}`).set("Authorization", founder.bearer)).status).toBe(200);
  });

  it("answers 404 for a draft, a missing id and another company's document, alike, and deletes nothing", async () => {
    const { founder, company } = await board("Secret Board");
    const draft = await api()
      .post("/api/new-meeting")
      .set("Authorization", founder.bearer)
      .send({ title: "Draft", date: inThreeDays().toISOString() });
    expect(draft.status).toBe(201);
    const secret = await fileDocument(company.id, founder.id, "Takeover plan.pdf");
    const outsider = (await board("Outsider Inc")).founder;

    const answers = [
      await deleteAs(founder, draft.body.id),
      await deleteAs(outsider, secret),
      await deleteAs(outsider, 999_999),
      await deleteAs(founder, "abc"),
    ];
    for (const response of answers) {
      expect(response.status).toBe(404);
      expect(response.text).not.toContain("Takeover");
    }
    // Another company's document reads exactly like an id that names nothing.
    expect(answers[1]!.body).toEqual(answers[2]!.body);
    expect((await rowsOf(draft.body.id)).meetings).toBe(1);
    expect(await rowsOf(secret)).toMatchObject({ documents: 1, files: 1 });
  });

  it("answers 401 signed out", async () => {
    const { founder, company } = await board();
    const id = await fileDocument(company.id, founder.id);
    expect((await api().delete(`/api/documents/${id}`)).status).toBe(401);
    expect((await rowsOf(id)).documents).toBe(1);
  });
});
