import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { PDFDocument, StandardFonts } from "@cantoo/pdf-lib";
import { eq } from "drizzle-orm";
import request from "supertest";
import { documents, documentVersions } from "../db/schema";
import { claimFile, writeFile } from "../features/documents/documents.service";
import type { SignedUp, TestContext } from "./test-context";

// What the paper-text tests share: a paper uploaded through the app, a later version of it written straight to the
// database (as the replacement of a paper stores one: its own bytes, a new row in `document_versions`), and PDFs
// whose pages say what a test needs.

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

export function paperVersionFixtures(ctx: TestContext) {
  /** Uploads a file through the app's multipart upload (titled `name`, its file name by default); answers its document id. */
  async function upload(user: SignedUp, fileName: string, bytes: Buffer, name = fileName): Promise<number> {
    const response = await request(ctx.app)
      .post("/api/documents")
      .set("Authorization", user.bearer)
      .field("name", name)
      .field("category", "Financial")
      .attach("file", bytes, fileName);
    if (response.status !== 201) throw new Error(`upload of ${fileName} failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.id as number;
  }

  /** A test-only later version of a paper: its bytes stored, its row added, the paper's version number moved on. */
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

  const compare = (user: SignedUp, documentId: number, from: number | string, to: number | string) =>
    request(ctx.app).get(`/api/documents/${documentId}/compare?from=${from}&to=${to}`).set("Authorization", user.bearer);

  return { upload, addVersionForTest, compare };
}
