import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import request from "supertest";
import { acceptedFileTypes, maxFileBytes } from "../../../../shared/documents";
import { auditEvents, notifications, userPreferences } from "../../db/schema";
import { samplePdf, samplePng, sampleFiles, sampleText } from "../../testing/sample-files";
import { useTestContext } from "../../testing/test-context";
import { uploadFixtures } from "../../testing/upload-fixtures";

const ctx = useTestContext();
const { api, board, jsonUpload, streamedUpload, download, stored } = uploadFixtures(ctx);

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
