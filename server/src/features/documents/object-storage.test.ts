import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { count, eq } from "drizzle-orm";
import S3rver from "s3rver";
import request from "supertest";
import { documentFiles, fileChunks, fileSweep, platformServices } from "../../db/schema";
import { encryptSecret } from "../../integrations/secrets";
import { samplePdf, samplePng } from "../../testing/sample-files";
import { useTestContext } from "../../testing/test-context";

const ctx = useTestContext();

// A real S3-compatible server in this process (s3rver keeps objects in a temporary directory).
let server: S3rver;
let directory: string;
let endpoint: string;
const bucket = "board-papers";
const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "quorum-s3-"));
  server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const address = (await server.run()) as AddressInfo;
  endpoint = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await server.close();
  rmSync(directory, { recursive: true, force: true });
});

const s3 = () => new S3Client({ endpoint, region: "us-east-1", forcePathStyle: true, credentials });
async function objectKeys(): Promise<string[]> {
  const listed = await s3().send(new ListObjectsV2Command({ Bucket: bucket }));
  return (listed.Contents ?? []).map((object) => object.Key!);
}

async function configureStorage(isEnabled = true) {
  await ctx.db.delete(platformServices).where(eq(platformServices.serviceName, "Storage"));
  const key = `${credentials.accessKeyId}:${credentials.secretAccessKey}`;
  await ctx.db.insert(platformServices).values({
    serviceName: "Storage",
    serviceKeyEncrypted: encryptSecret(key, ctx.deps.appSecret),
    serviceKeyPreview: key.slice(0, 8),
    serviceUrl: `${endpoint}/${bucket}`,
    isEnabled,
  });
}

describe("files in S3-compatible object storage (the Storage service)", () => {
  it("uploads to the bucket, downloads from it, and deleting the document removes the object", async () => {
    await configureStorage();
    const { founder } = await ctx.board();
    const [chunksBefore] = await ctx.db.select({ n: count() }).from(fileChunks);
    // Past 5 MiB, so the streamed path writes a multipart upload.
    const big = samplePdf(12 * 1024 * 1024 + 17);
    const created = await request(ctx.app)
      .post("/api/documents")
      .set("Authorization", founder.bearer)
      .field("name", "Annual report")
      .attach("file", big, "report.pdf");
    expect(created.status).toBe(201);
    const small = await request(ctx.app)
      .post("/api/documents")
      .set("Authorization", founder.bearer)
      .send({ name: "logo.png", content: `data:image/png;base64,${samplePng().toString("base64")}`, category: "Marketing" });
    expect(small.status).toBe(201);

    const [row] = await ctx.db.select().from(documentFiles).where(eq(documentFiles.documentId, created.body.id));
    expect(row).toMatchObject({ storage: "s3", location: `${endpoint}/${bucket}`, bytes: null });
    expect(await objectKeys()).toEqual(expect.arrayContaining([row!.storageKey]));
    const stored = await s3().send(new GetObjectCommand({ Bucket: bucket, Key: row!.storageKey! }));
    expect(Buffer.compare(Buffer.from(await stored.Body!.transformToByteArray()), big)).toBe(0);
    // Nothing went to the database's own file store, and both uploads were claimed.
    expect((await ctx.db.select({ n: count() }).from(fileChunks))[0]!.n).toBe(chunksBefore!.n);
    expect((await ctx.db.select({ n: count() }).from(fileSweep))[0]!.n).toBe(0);

    // Switching storage off does not strand the file: it is read from where it was written.
    await configureStorage(false);
    const downloaded = await request(ctx.app)
      .get(`/api/documents/${created.body.id}/download`)
      .set("Authorization", founder.bearer)
      .responseType("blob");
    expect(downloaded.status).toBe(200);
    expect(downloaded.headers["content-length"]).toBe(String(big.length));
    expect(Buffer.compare(downloaded.body as Buffer, big)).toBe(0);
    // A range is asked of the object store, not cut from the whole object.
    for (const [range, start, end] of [
      ["bytes=0-99", 0, 99],
      ["bytes=-6", big.length - 6, big.length - 1],
    ] as const) {
      const part = await request(ctx.app)
        .get(`/api/documents/${created.body.id}/download`)
        .set("Authorization", founder.bearer)
        .set("Range", range)
        .responseType("blob");
      expect(part.status).toBe(206);
      expect(part.headers["content-range"]).toBe(`bytes ${start}-${end}/${big.length}`);
      expect(Buffer.compare(part.body as Buffer, big.subarray(start, end + 1))).toBe(0);
    }

    expect((await request(ctx.app).delete(`/api/documents/${created.body.id}`).set("Authorization", founder.bearer)).status).toBe(204);
    expect(await objectKeys()).not.toContain(row!.storageKey);
    expect((await ctx.db.select({ n: count() }).from(fileSweep))[0]!.n).toBe(0);
  }, 60_000);

  it("refuses a file that is not what it claims and leaves no object behind", async () => {
    await configureStorage();
    const { founder } = await ctx.board();
    const before = await objectKeys();
    const response = await request(ctx.app)
      .post("/api/documents")
      .set("Authorization", founder.bearer)
      .field("name", "Fake")
      .attach("file", Buffer.concat([samplePdf(), Buffer.alloc(7 * 1024 * 1024)]), "fake.png");
    expect(response.status).toBe(415);
    expect(await objectKeys()).toEqual(before);
    expect((await ctx.db.select({ n: count() }).from(fileSweep))[0]!.n).toBe(0);
  });
});
