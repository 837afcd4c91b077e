import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { count, eq } from "drizzle-orm";
import request from "supertest";
import { acceptedFileTypes, maxFileBytes } from "../../../../shared/documents";
import { auditEvents, documents, fileChunks, fileSweep, notifications, userPreferences } from "../../db/schema";
import { meetingContent } from "../../testing/factories";
import { samplePdf, samplePng, sampleFiles, sampleText } from "../../testing/sample-files";
import { createTestContext, type SignedUp, type TestContext } from "../../testing/test-context";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const api = () => request(ctx.app);
const board = (name = "Acme Holdings") => ctx.board(name, { firstName: "Fay", lastName: "Founder" });

function jsonUpload(user: SignedUp, name: string, bytes: Buffer, extra: Record<string, unknown> = {}) {
  return api()
    .post("/api/documents")
    .set("Authorization", user.bearer)
    .send({
      name,
      fileType: "application/octet-stream",
      fileSize: 7,
      content: `data:application/octet-stream;base64,${bytes.toString("base64")}`,
      category: "Financial",
      ...extra,
    });
}

function streamedUpload(user: SignedUp, fileName: string, bytes: Buffer, fields: Record<string, string> = {}) {
  let call = api().post("/api/documents").set("Authorization", user.bearer);
  for (const [field, value] of Object.entries({ name: fileName, category: "Legal", ...fields })) call = call.field(field, value);
  return call.attach("file", bytes, fileName);
}

const download = (user: SignedUp, id: number, query = "") =>
  api().get(`/api/documents/${id}/download${query}`).set("Authorization", user.bearer).responseType("blob");

async function stored(companyId: number) {
  const [docs] = await ctx.db.select({ n: count() }).from(documents).where(eq(documents.companyId, companyId));
  const [chunks] = await ctx.db.select({ n: count() }).from(fileChunks);
  const [pending] = await ctx.db.select({ n: count() }).from(fileSweep);
  return { documents: docs!.n, chunks: chunks!.n, pending: pending!.n };
}

describe("uploading a file", () => {
  it("round-trips each of the eight types byte for byte, as a data URL and as a stream", async () => {
    const { founder } = await board();
    for (const [extension, make] of Object.entries(sampleFiles)) {
      const bytes = make();
      for (const send of [jsonUpload, streamedUpload]) {
        const created = await send(founder, `Paper.${extension}`, bytes);
        expect(created.status, `${extension} ${send.name}: ${JSON.stringify(created.body)}`).toBe(201);
        expect(created.body).toMatchObject({
          name: `Paper.${extension}`,
          fileType: acceptedFileTypes[extension as keyof typeof acceptedFileTypes],
          fileSize: bytes.length,
          hasFile: true,
          uploadedBy: founder.id,
        });
        const fetched = await download(founder, created.body.id);
        expect(fetched.status).toBe(200);
        expect(Buffer.compare(fetched.body as Buffer, bytes)).toBe(0);
        expect(fetched.headers["content-length"]).toBe(String(bytes.length));
      }
    }
  });

  it("takes the type from the data URL when the name has no extension, and defaults the category to General", async () => {
    const { founder } = await board();
    const bytes = samplePdf();
    const response = await api()
      .post("/api/documents")
      .set("Authorization", founder.bearer)
      .send({
        name: "Q2 accounts",
        content: `data:application/pdf;base64,${bytes.toString("base64")}`,
        category: "",
        description: "Draft for review",
      });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      name: "Q2 accounts",
      fileType: "application/pdf",
      category: "General",
      content: "Draft for review",
    });
    const streamed = await streamedUpload(founder, "notes.txt", sampleText(), { name: "Notes", category: "" });
    expect(streamed.status).toBe(400);
    const defaulted = await api()
      .post("/api/documents")
      .set("Authorization", founder.bearer)
      .field("name", "Notes")
      .attach("file", sampleText(), "notes.txt");
    expect(defaulted.body).toMatchObject({ category: "General", fileType: "text/plain" });
  });

  it("takes a JSON body whose content comes before the name, with escapes, and checks the type once the name is known", async () => {
    const { founder, company } = await board();
    const send = (body: string) =>
      api().post("/api/documents").set("Authorization", founder.bearer).set("Content-Type", "application/json").send(body);
    for (const [name, bytes] of [
      ["logo.png", samplePng()],
      ["notes.txt", sampleText()],
      ["minutes.docx", sampleFiles.docx()],
    ] as const) {
      const content = bytes.toString("base64").replaceAll("/", "\\/");
      const created = await send(
        `{"content":"data:application/octet-stream;base64,${content}","category":"Legal","name":${JSON.stringify(name)}}`,
      );
      expect(created.status, name).toBe(201);
      expect(created.body).toMatchObject({
        name,
        category: "Legal",
        fileSize: bytes.length,
        fileType: acceptedFileTypes[name.split(".")[1] as keyof typeof acceptedFileTypes],
      });
      expect(Buffer.compare((await download(founder, created.body.id)).body as Buffer, bytes)).toBe(0);
    }
    const before = await stored(company.id);
    for (const [name, bytes] of [
      ["logo.png", samplePdf()],
      ["notes.txt", samplePng()],
      ["minutes.docx", samplePng()],
    ] as const) {
      const refused = await send(`{"content":"data:;base64,${bytes.toString("base64")}","name":${JSON.stringify(name)}}`);
      expect(refused.status, name).toBe(415);
    }
    expect((await send(`{"content":"data:;base64,${samplePng().toString("base64")}"}`)).status).toBe(400);
    expect((await send(`{"content":"data:;base64,${samplePng().toString("base64")}","name":"logo.png"`)).body).toEqual({
      message: "Malformed JSON in request body",
    });
    expect(await stored(company.id)).toEqual(before);
  });

  it("refuses with 415 what is not what it claims, and stores nothing", async () => {
    const { founder, company } = await board();
    const before = await stored(company.id);
    const html = Buffer.from("<!doctype html><html><body><script>alert(document.cookie)</script></body></html>");
    const executable = Buffer.concat([Buffer.from("MZ"), Buffer.alloc(600, 0x90)]);
    const cases: [string, Buffer][] = [
      ["page.html", html],
      ["accounts.pdf", html],
      ["accounts.pdf", executable],
      ["logo.png", samplePdf()],
      ["notes.txt", Buffer.from([0x61, 0x00, 0x62])],
      ["notes.txt", Buffer.from([0xc3, 0x28])],
      ["minutes.docx", Buffer.from(sampleFiles.docx().toString("latin1").replaceAll("word/document.xml", "word/documenX.xml"), "latin1")],
    ];
    for (const [name, bytes] of cases) {
      for (const send of [jsonUpload, streamedUpload]) {
        const response = await send(founder, name, bytes);
        expect(response.status, `${name} ${send.name}`).toBe(415);
        expect(response.body.message).toMatch(/^File type not accepted: upload a pdf, doc, docx, txt, jpg, jpeg, png, gif file$/);
      }
    }
    expect(await stored(company.id)).toEqual(before);
  });

  it("accepts exactly 20 MiB and refuses one byte more with 413, storing nothing", async () => {
    const { founder, company } = await board();
    const exact = samplePdf(maxFileBytes);
    expect(exact.length).toBe(maxFileBytes);
    const accepted = await streamedUpload(founder, "big.pdf", exact);
    expect(accepted.status).toBe(201);
    expect(accepted.body.fileSize).toBe(maxFileBytes);
    const acceptedJson = await jsonUpload(founder, "big.pdf", exact);
    expect(acceptedJson.status).toBe(201);

    const before = await stored(company.id);
    const over = samplePdf(maxFileBytes + 1);
    for (const send of [jsonUpload, streamedUpload]) {
      const response = await send(founder, "big.pdf", over);
      expect(response.status).toBe(413);
      expect(response.body).toEqual({ message: "The file is larger than 20 MB" });
    }
    expect(await stored(company.id)).toEqual(before);
  }, 120_000);

  it("answers 413 from the declared length before reading the body, and keeps answering", async () => {
    const { founder } = await board();
    const server = ctx.app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      for (const contentType of ["multipart/form-data; boundary=x", "application/json"]) {
        const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = httpRequest({
            host: "127.0.0.1",
            port,
            method: "POST",
            path: "/api/documents",
            headers: { Authorization: founder.bearer, "Content-Type": contentType, "Content-Length": String(40 * 1024 * 1024) },
          });
          req.on("response", (res) => {
            let body = "";
            res.on("data", (chunk) => (body += chunk));
            res.on("end", () => {
              resolve({ status: res.statusCode ?? 0, body });
              req.destroy();
            });
          });
          req.on("error", reject);
          // Only the start of the body is ever sent: the answer must come without the rest.
          req.write("--x\r\n");
        });
        expect(answer.status).toBe(413);
        expect(JSON.parse(answer.body)).toHaveProperty("message");
      }
      expect((await request(server).get("/api/health")).status).toBe(200);
    } finally {
      server.close();
    }
  });

  it("ignores a claimed fileSize, refuses a foreign uploadedBy or companyId, and lets no observer upload", async () => {
    const { founder, company, member } = await board();
    const ann = await member("member");
    const obi = await member("observer");
    const bytes = samplePng();
    const claimed = await jsonUpload(founder, "logo.png", bytes, { fileSize: 999_999 });
    expect(claimed.body.fileSize).toBe(bytes.length);
    const before = await stored(company.id);
    const foreign = await jsonUpload(founder, "logo.png", bytes, { uploadedBy: ann.id });
    expect(foreign.status).toBe(400);
    const foreignStreamed = await streamedUpload(founder, "logo.png", bytes, { uploadedBy: String(ann.id) });
    expect(foreignStreamed.status).toBe(400);
    const otherCompany = await streamedUpload(founder, "logo.png", bytes, { companyId: String(company.id + 1000) });
    expect(otherCompany.status).toBe(400);
    for (const send of [jsonUpload, streamedUpload]) {
      const observer = await send(obi, "logo.png", bytes);
      expect(observer.status).toBe(403);
      expect(observer.body).toEqual({ message: "Observers cannot upload documents" });
    }
    expect(await stored(company.id)).toEqual(before);
  });

  it("refuses a file as a meeting's content with 400, before a byte is stored when the category comes first", async () => {
    const { founder, company } = await board();
    const bytes = samplePdf(3 * 1024 * 1024);
    const before = await stored(company.id);
    const send = () =>
      api()
        .post("/api/documents")
        .set("Authorization", founder.bearer)
        .send({ category: "Meeting", name: "pack.pdf", content: `data:application/pdf;base64,${bytes.toString("base64")}` });
    let refused!: request.Response;
    // The session and the guard read; no chunk written and removed again.
    expect(await ctx.countQueries(async () => (refused = await send()))).toBeLessThanOrEqual(3);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ path: "content", message: "A meeting's content is its details as JSON, not a file" }]);
    expect(await stored(company.id)).toEqual(before);
  });

  it("audits an upload", async () => {
    const { founder } = await board();
    const created = await streamedUpload(founder, "notes.txt", sampleText());
    const [audit] = await ctx.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.targetId, String(created.body.id)));
    expect(audit).toMatchObject({
      action: "document.uploaded",
      actorId: founder.id,
      details: { name: "notes.txt", fileType: "text/plain" },
    });
  });

  it("tells the rest of the board, except whoever switched Document Updates off", async () => {
    const { founder, member } = await board();
    const listening = await member("member");
    const quiet = await member("observer");
    await ctx.db.insert(userPreferences).values({ userId: quiet.id, settings: { documentUpdates: false } });
    const created = await streamedUpload(founder, "budget.txt", sampleText());
    expect(created.status).toBe(201);
    const told = await ctx.db.select().from(notifications).where(eq(notifications.kind, "documentUploaded"));
    const toldIds = told.map((row) => row.userId);
    expect(toldIds).toContain(listening.id);
    expect(toldIds).not.toContain(quiet.id);
    expect(toldIds).not.toContain(founder.id);
    expect(told.find((row) => row.userId === listening.id)).toMatchObject({ title: "New document: budget.txt", link: "/documents" });
  });
});

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
    });
    expect(Object.keys(recent!.body[1]).sort()).toEqual(["createdAt", "fileSize", "id", "name", "uploader"]);
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
