import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { PDFDocument, StandardFonts } from "@cantoo/pdf-lib";
import { count, eq } from "drizzle-orm";
import request from "supertest";
import { documents, documentVersions, fileChunks, fileSweep } from "../db/schema";
import { claimFile, writeFile } from "../features/documents/documents.service";
import { paperPdf } from "./board-pack-fixtures";
import type { TestContext } from "./test-context";

interface Caller {
  bearer: string;
}

// What the tests of papers' versions share: uploading a paper, replacing it, its history, its versions' bytes and
// what changed between them, and PDFs whose pages say what a test needs.

/** A PDF with one page per entry, each page's lines drawn one under the other (no page: a blank page). */
export async function linesPdf(pages: (string[] | null)[]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = pdf.addPage();
    (lines ?? []).forEach((line, n) => page.drawText(line, { x: 72, y: 700 - n * 20, size: 12, font }));
  }
  return Buffer.from(await pdf.save());
}

export function versionFixtures(ctx: TestContext) {
  const api = () => request(ctx.app);

  /** Uploads a file (multipart, as the app does); answers the created document. */
  async function upload(user: Caller, fileName: string, bytes: Buffer, name = fileName) {
    const response = await api()
      .post("/api/documents")
      .set("Authorization", user.bearer)
      .field("name", name)
      .field("category", "Financial")
      .attach("file", bytes, fileName);
    if (response.status !== 201) throw new Error(`upload failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body as { id: number; name: string };
  }

  /** A PDF paper of `pages` pages whose text names `label`. */
  async function uploadPdf(user: Caller, name: string, label: string, pages: number) {
    const bytes = await paperPdf(label, pages);
    return { ...(await upload(user, name, bytes)), bytes };
  }

  /** `POST /api/documents/:id/versions`: the note (unless null) first, then the file part. */
  function replace(user: Caller, id: number, note: string | null, fileName: string, bytes: Buffer) {
    let call = api().post(`/api/documents/${id}/versions`).set("Authorization", user.bearer);
    if (note !== null) call = call.field("note", note);
    return call.attach("file", bytes, fileName);
  }

  const history = (user: Caller, id: number) => api().get(`/api/documents/${id}/versions`).set("Authorization", user.bearer);

  const downloadVersion = (user: Caller, id: number, version: number | string, headers: Record<string, string> = {}) => {
    let call = api().get(`/api/documents/${id}/versions/${version}/download`).set("Authorization", user.bearer);
    for (const [name, value] of Object.entries(headers)) call = call.set(name, value);
    return call.responseType("blob");
  };

  const download = (user: Caller, id: number) =>
    api().get(`/api/documents/${id}/download`).set("Authorization", user.bearer).responseType("blob");

  /**
   * A later version of a paper written straight to the database (its bytes stored, its row added, the paper's version
   * number moved on), for a file type the app's upload checks would refuse or a test that must skip the replacement.
   */
  async function addVersionForTest(documentId: number, version: number, fileType: string, bytes: Buffer): Promise<void> {
    const place = await writeFile(ctx.deps, { storage: "database", location: null }, Readable.from([bytes]), fileType);
    await ctx.db.transaction(async (tx) => {
      await tx.insert(documentVersions).values({
        documentId,
        version,
        fileType,
        fileSize: bytes.length,
        uploadedAt: ctx.clock.now(),
        note: `Version ${version}`,
        ...place,
        sha256: createHash("sha256").update(bytes).digest("hex"),
      });
      await claimFile(tx, place);
      await tx
        .update(documents)
        .set({ version, fileType, fileSize: bytes.length, replacedAt: ctx.clock.now() })
        .where(eq(documents.id, documentId));
    });
  }

  const compare = (user: Caller, id: number, from: number | string, to: number | string) =>
    api().get(`/api/documents/${id}/compare?from=${from}&to=${to}`).set("Authorization", user.bearer);

  /** Rows of stored bytes and versions in the whole database: a refused replacement leaves them as they were. */
  async function storedRows() {
    const [[chunks], [pending], [versions]] = await Promise.all([
      ctx.db.select({ n: count() }).from(fileChunks),
      ctx.db.select({ n: count() }).from(fileSweep),
      ctx.db.select({ n: count() }).from(documentVersions),
    ]);
    return { chunks: chunks!.n, pending: pending!.n, versions: versions!.n };
  }

  return { api, upload, uploadPdf, replace, history, downloadVersion, download, compare, addVersionForTest, storedRows };
}
