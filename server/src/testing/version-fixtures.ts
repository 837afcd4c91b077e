import { count } from "drizzle-orm";
import request from "supertest";
import { documentVersions, fileChunks, fileSweep } from "../db/schema";
import { paperPdf } from "./board-pack-fixtures";
import type { TestContext } from "./test-context";

interface Caller {
  bearer: string;
}

// What the tests of papers' versions share: uploading a paper, replacing it, its history and its versions' bytes.

export function versionFixtures(ctx: Pick<TestContext, "app" | "db">) {
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

  /** Rows of stored bytes and versions in the whole database: a refused replacement leaves them as they were. */
  async function storedRows() {
    const [[chunks], [pending], [versions]] = await Promise.all([
      ctx.db.select({ n: count() }).from(fileChunks),
      ctx.db.select({ n: count() }).from(fileSweep),
      ctx.db.select({ n: count() }).from(documentVersions),
    ]);
    return { chunks: chunks!.n, pending: pending!.n, versions: versions!.n };
  }

  return { api, upload, uploadPdf, replace, history, downloadVersion, download, storedRows };
}
