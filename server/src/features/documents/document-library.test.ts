import request from "supertest";
import { meetingContent } from "../../testing/factories";
import { samplePdf, samplePng, sampleFiles, sampleText } from "../../testing/sample-files";
import { useTestContext } from "../../testing/test-context";
import { uploadFixtures } from "../../testing/upload-fixtures";

const ctx = useTestContext();
const { api, board, jsonUpload, streamedUpload, download, stored } = uploadFixtures(ctx);

describe("the library", () => {
  it("lists files newest first with their uploader, never bytes and never meetings, in one query", async () => {
    const { founder, company, member } = await board();
    const ann = await member("member", { firstName: "Ann", lastName: "Lee" });
    const meeting = await api()
      .post("/api/documents")
      .set("Authorization", founder.bearer)
      .send({ category: "Meeting", content: JSON.stringify(meetingContent(new Date("2026-07-01T10:00:00Z"))) });
    expect(meeting.status).toBe(201);
    const ids: number[] = [];
    for (let n = 0; n < 7; n += 1) {
      ctx.clock.advance(60_000);
      const created = await jsonUpload(n % 2 ? ann : founder, `Paper ${n}.pdf`, samplePdf(200_000));
      ids.push(created.body.id);
    }
    let listed: request.Response | undefined;
    // The session is read once now; the counted reads find it in the instance's cache.
    await api().get(`/api/companies/${company.id}/documents/recent`).set("Authorization", founder.bearer);
    const queries = await ctx.countQueries(async () => {
      listed = await api().get(`/api/companies/${company.id}/documents`).set("Authorization", founder.bearer);
    });
    expect(listed!.status).toBe(200);
    const body = listed!.body as { id: number; uploader: string; hasFile: boolean; content: unknown }[];
    expect(body.map((row) => row.id)).toEqual([...ids].reverse());
    expect(body[0]).toMatchObject({ uploader: "Fay Founder", hasFile: true, content: null, category: "Financial" });
    expect(body[1]).toMatchObject({ uploader: "Ann Lee" });
    expect(listed!.text.length).toBeLessThan(2048 * body.length);
    expect(listed!.text).not.toContain("base64");
    expect(listed!.text).not.toContain("%PDF");
    // One for the session, one for the membership check at most, one for the list.
    expect(queries).toBeLessThanOrEqual(3);

    let recent: request.Response | undefined;
    const recentQueries = await ctx.countQueries(async () => {
      recent = await api().get(`/api/companies/${company.id}/documents/recent`).set("Authorization", founder.bearer);
    });
    expect(recent!.body).toHaveLength(5);
    expect(recent!.body[0]).toEqual({
      id: ids[6],
      name: "Paper 6.pdf",
      fileSize: 200_000,
      uploader: "Fay Founder",
      createdAt: expect.any(String),
      version: 1,
      replacedAt: null,
      changedSinceRead: false,
      readVersion: null,
    });
    expect(Object.keys(recent!.body[1]).sort()).toEqual([
      "changedSinceRead",
      "createdAt",
      "fileSize",
      "id",
      "name",
      "readVersion",
      "replacedAt",
      "uploader",
      "version",
    ]);
    expect(recentQueries).toBe(queries);
  });

  it("is one query whatever its length", async () => {
    const { founder, company } = await board();
    const measure = () => ctx.countQueries(() => api().get(`/api/companies/${company.id}/documents`).set("Authorization", founder.bearer));
    await jsonUpload(founder, "a.txt", sampleText());
    const one = await measure();
    for (let n = 0; n < 5; n += 1) await jsonUpload(founder, "a.txt", sampleText());
    expect(await measure()).toBe(one);
  });
});

describe("downloading", () => {
  it("sends the stored type, an RFC 6266 name, nosniff, a sandbox CSP and an ETag, and answers 304 to it", async () => {
    const { founder } = await board();
    const pdf = await jsonUpload(founder, "Compte rendu – été.pdf", samplePdf());
    const response = await download(founder, pdf.body.id);
    expect(response.headers["content-type"]).toBe("application/pdf");
    expect(response.headers["content-disposition"]).toBe(
      `attachment; filename="Compte rendu _ _t_.pdf"; filename*=UTF-8''Compte%20rendu%20%E2%80%93%20%C3%A9t%C3%A9.pdf`,
    );
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    const csp = response.headers["content-security-policy"] as string;
    expect(csp.split(";").map((part) => part.trim())).toContain("sandbox");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    const etag = response.headers.etag as string;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const again = await api().get(`/api/documents/${pdf.body.id}/download`).set("Authorization", founder.bearer).set("If-None-Match", etag);
    expect(again.status).toBe(304);
    expect(again.headers["content-length"] ?? "0").toBe("0");

    const inline = await download(founder, pdf.body.id, "?inline=1");
    expect(inline.headers["content-disposition"]).toMatch(/^inline; /);
    const text = await jsonUpload(founder, "notes", sampleText(), { content: `data:text/plain;base64,${sampleText().toString("base64")}` });
    const textInline = await download(founder, text.body.id, "?inline=1");
    expect(textInline.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(textInline.headers["content-disposition"]).toBe(`inline; filename="notes.txt"; filename*=UTF-8''notes.txt`);
    const docx = await streamedUpload(founder, "minutes.docx", sampleFiles.docx());
    expect((await download(founder, docx.body.id, "?inline=1")).headers["content-disposition"]).toMatch(/^attachment; /);
  });

  it("works with the session cookie alone (a new tab), not with nothing", async () => {
    const { founder } = await board();
    const created = await jsonUpload(founder, "logo.png", samplePng());
    const login = await api().post("/api/auth/login").send({ username: founder.username, password: founder.password });
    const cookie = (login.headers["set-cookie"] as unknown as string[]).map((line) => line.split(";")[0]).join("; ");
    const withCookie = await api().get(`/api/documents/${created.body.id}/download`).set("Cookie", cookie).responseType("blob");
    expect(withCookie.status).toBe(200);
    expect(Buffer.compare(withCookie.body as Buffer, samplePng())).toBe(0);
    expect((await api().get(`/api/documents/${created.body.id}/download`)).status).toBe(401);
  });

  it("answers 404 for a meeting, a document without a file and another company's file", async () => {
    const { founder } = await board();
    const outsider = (await board("Outsider Inc")).founder;
    const file = await jsonUpload(founder, "Takeover plan.pdf", samplePdf());
    const note = await api()
      .post("/api/documents")
      .set("Authorization", founder.bearer)
      .send({ name: "Note", content: "Just words", category: "General" });
    expect(note.body).toMatchObject({ hasFile: false, content: "Just words" });
    const meeting = await api()
      .post("/api/documents")
      .set("Authorization", founder.bearer)
      .send({ category: "Meeting", content: JSON.stringify(meetingContent(new Date("2026-07-01T10:00:00Z"))) });
    expect((await download(founder, note.body.id)).status).toBe(404);
    expect((await download(founder, meeting.body.id)).status).toBe(404);
    for (const response of [
      await download(outsider, file.body.id),
      await api().get(`/api/documents/${file.body.id}`).set("Authorization", outsider.bearer),
      await api().delete(`/api/documents/${file.body.id}`).set("Authorization", outsider.bearer),
    ]) {
      expect(response.status).toBe(404);
    }
    expect((await download(founder, file.body.id)).status).toBe(200);
  });

  it("lets an observer read and download, but not delete", async () => {
    const { founder, company, member } = await board();
    const obi = await member("observer");
    const created = await jsonUpload(founder, "logo.png", samplePng());
    expect((await api().get(`/api/companies/${company.id}/documents`).set("Authorization", obi.bearer)).status).toBe(200);
    expect((await api().get(`/api/companies/${company.id}/documents/recent`).set("Authorization", obi.bearer)).status).toBe(200);
    expect((await download(obi, created.body.id)).status).toBe(200);
    expect((await api().delete(`/api/documents/${created.body.id}`).set("Authorization", obi.bearer)).status).toBe(403);
  });
});

describe("deleting an uploaded file", () => {
  it("removes its bytes with it; a member cannot delete another's, a founder and an admin can", async () => {
    const { founder, company, member } = await board();
    const ann = await member("member");
    const ada = await member("admin");
    const ids = [];
    for (let n = 0; n < 3; n += 1) ids.push((await streamedUpload(ann, "big.pdf", samplePdf(3 * 1024 * 1024))).body.id as number);
    const before = await stored(company.id);
    expect(
      (
        await api()
          .delete(`/api/documents/${ids[0]}`)
          .set("Authorization", (await member("member")).bearer)
      ).status,
    ).toBe(403);
    for (const [user, id] of [
      [ann, ids[0]],
      [founder, ids[1]],
      [ada, ids[2]],
    ] as const) {
      expect((await api().delete(`/api/documents/${id}`).set("Authorization", user.bearer)).status).toBe(204);
      expect((await download(founder, id!)).status).toBe(404);
    }
    const after = await stored(company.id);
    expect(after.documents).toBe(before.documents - 3);
    // Three files of 3 MiB, three 1 MiB chunks each.
    expect(after.chunks).toBe(before.chunks - 9);
  });

  it("answers 401 and 404 before anything is stored for a signed-out or company-less upload", async () => {
    const loner = await ctx.signUp();
    const response = await streamedUpload(loner, "notes.txt", sampleText());
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: "Create or choose a company first" });
    expect((await api().post("/api/documents").attach("file", sampleText(), "notes.txt")).status).toBe(401);
  });
});
