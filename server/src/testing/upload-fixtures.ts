import { count, eq } from "drizzle-orm";
import request from "supertest";
import { documents, fileChunks, fileSweep } from "../db/schema";
import type { TestContext } from "./test-context";

interface Uploader {
  /** Authorization header value. */
  bearer: string;
}

/** The requests the upload tests make, bound to a file's test context. */
export function uploadFixtures(ctx: Pick<TestContext, "app" | "db" | "board">) {
  const api = () => request(ctx.app);
  const board = (name = "Acme Holdings") => ctx.board(name, { firstName: "Fay", lastName: "Founder" });

  function jsonUpload(user: Uploader, name: string, bytes: Buffer, extra: Record<string, unknown> = {}) {
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

  function streamedUpload(user: Uploader, fileName: string, bytes: Buffer, fields: Record<string, string> = {}) {
    let call = api().post("/api/documents").set("Authorization", user.bearer);
    for (const [field, value] of Object.entries({ name: fileName, category: "Legal", ...fields })) call = call.field(field, value);
    return call.attach("file", bytes, fileName);
  }

  const download = (user: Uploader, id: number, query = "") =>
    api().get(`/api/documents/${id}/download${query}`).set("Authorization", user.bearer).responseType("blob");

  async function stored(companyId: number) {
    const [docs] = await ctx.db.select({ n: count() }).from(documents).where(eq(documents.companyId, companyId));
    const [chunks] = await ctx.db.select({ n: count() }).from(fileChunks);
    const [pending] = await ctx.db.select({ n: count() }).from(fileSweep);
    return { documents: docs!.n, chunks: chunks!.n, pending: pending!.n };
  }

  return { api, board, jsonUpload, streamedUpload, download, stored };
}
