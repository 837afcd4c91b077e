import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { get, createServer, type ClientRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import S3rver from "s3rver";
import { verifyArchive } from "../../../../scripts/ops/verify-archive";
import { documentFiles, platformServices } from "../../db/schema";
import { encryptSecret } from "../../integrations/secrets";
import { archiveFiles, archiveFixtures, unzip } from "../../testing/archive-fixtures";
import { useTestContext } from "../../testing/test-context";
import { versionFixtures } from "../../testing/version-fixtures";
import { insertDocument, writeFile } from "../documents/documents.service";
import { archiveLimits, archiveRunningMessage, archiveSlots, archivesBusyMessage, maxArchivesAtOnce } from "./archive.routes";

// Who may download the archive, one at a time per company, a client that goes away, and papers in object storage.

const ctx = useTestContext();
const { getArchive } = archiveFixtures(ctx);
const { uploadPdf } = versionFixtures(ctx);
const onDisk = archiveFiles();

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer(ctx.app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Stores incompressible bytes as a paper of the company, straight through the file store (no upload checks). */
async function storeLargePaper(companyId: number, name: string, size: number): Promise<Buffer> {
  const bytes = randomBytes(size);
  const place = await writeFile(ctx.deps, { storage: "database", location: null }, Readable.from([bytes]), "application/pdf");
  await ctx.db.transaction((tx) =>
    insertDocument(
      tx,
      ctx.clock,
      { companyId, actor: null },
      { name, category: "General", description: null, fileType: "application/pdf", fileSize: size },
      { ...place, sha256: "0".repeat(64) },
    ),
  );
  return bytes;
}

/** Starts a download that reads nothing: the server writes until the connection's buffers are full, then waits. */
function stalledDownload(bearer: string, companyId: number): Promise<{ request: ClientRequest; response: IncomingMessage }> {
  return new Promise((resolve, reject) => {
    const request = get(`${base}/api/companies/${companyId}/archive.zip`, { headers: { authorization: bearer } }, (response) => {
      response.pause();
      resolve({ request, response });
    });
    request.once("error", reject);
  });
}

describe("who may download the archive", () => {
  it("its founders and admins; not members, observers, another company's founder, or anyone signed out", async () => {
    const { founder, company, member } = await ctx.board("Guarded Archive Ltd");
    const admin = await member("admin");
    const plain = await member("member");
    const observer = await member("observer");
    const stranger = (await ctx.board("Another Board Ltd")).founder;
    expect((await getArchive(founder, company.id)).status).toBe(200);
    expect((await getArchive(admin, company.id)).status).toBe(200);
    for (const user of [plain, observer, stranger]) {
      const refused = await getArchive(user, company.id);
      expect(refused.status).toBe(403);
      expect(JSON.parse(String(refused.body))).toEqual({ message: expect.any(String) });
    }
    expect((await getArchive({ bearer: "" }, company.id)).status).toBe(401);
    expect((await getArchive(founder, 2_147_483_647)).status).toBe(403);
  });
});

describe("one archive of a company at a time", () => {
  it("refuses a second while one streams (429), and a client that goes away stops its archive and frees the company", async () => {
    const { founder, company } = await ctx.board("Busy Archive Ltd");
    // Whole chunks, and a few bytes more and fewer: every byte read back, a chunk at a time.
    const sizes = [8 * 1024 * 1024, 8 * 1024 * 1024 + 17, 8 * 1024 * 1024 - 5];
    const stored: Buffer[] = [];
    for (const [index, size] of sizes.entries()) stored.push(await storeLargePaper(company.id, `Large ${index + 1}.pdf`, size));
    const other = await ctx.board("Other Busy Ltd");

    const stalled = await stalledDownload(founder.bearer, company.id);
    expect(stalled.response.statusCode).toBe(200);
    const refused = await getArchive(founder, company.id);
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBe("60");
    expect(JSON.parse(String(refused.body))).toEqual({ message: archiveRunningMessage });
    // Another company's archive is not held up by it.
    expect((await getArchive(other.founder, other.company.id)).status).toBe(200);

    stalled.request.destroy();
    const linesOf = (id: string) => ctx.logs.filter((line) => line.includes(`"requestId":"${id}"`));
    const stalledId = String(stalled.response.headers["x-request-id"]);
    await vi.waitFor(() => expect(linesOf(stalledId).some((line) => line.includes('"archive stopped: the client went away"'))).toBe(true));
    expect(linesOf(stalledId).some((line) => line.includes('"archive written"'))).toBe(false);
    const again = await getArchive(founder, company.id);
    expect(again.status).toBe(200);
    const papers = (await unzip(again.body as Buffer)).filter((entry) => entry.path.startsWith("papers/"));
    expect(papers.map((entry) => entry.bytes.equals(stored[papers.indexOf(entry)]!))).toEqual([true, true, true]);
  });
});

describe("archives on one instance", () => {
  it("one per company, and a few in all: past them a 429 with Retry-After; a finished one frees its place", () => {
    const slots = archiveSlots(maxArchivesAtOnce);
    const releases = Array.from({ length: maxArchivesAtOnce }, (_, index) => slots.take(index + 1));
    expect(() => slots.take(1)).toThrow(archiveRunningMessage);
    expect(() => slots.take(99)).toThrow(
      expect.objectContaining({ status: 429, message: archivesBusyMessage, headers: { "Retry-After": "60" } }),
    );
    releases[0]!();
    releases[0]!();
    const release = slots.take(99);
    expect(() => slots.take(2)).toThrow(archiveRunningMessage);
    expect(() => slots.take(100)).toThrow(archivesBusyMessage);
    release();
    expect(() => slots.take(1)()).not.toThrow();
  });
});

describe("a client that stops reading", () => {
  it("is let go once it has read nothing for a while, and the company's archive is free again", async () => {
    const { founder, company } = await ctx.board("Stalled Archive Ltd");
    for (const index of [1, 2, 3]) await storeLargePaper(company.id, `Large ${index}.pdf`, 8 * 1024 * 1024);
    const stalledMs = archiveLimits.stalledMs;
    archiveLimits.stalledMs = 500;
    try {
      const stalled = await stalledDownload(founder.bearer, company.id);
      const stalledId = String(stalled.response.headers["x-request-id"]);
      const linesOf = (id: string) => ctx.logs.filter((line) => line.includes(`"requestId":"${id}"`));
      await vi.waitFor(
        () => expect(linesOf(stalledId).some((line) => line.includes('"archive stopped: the client stopped reading"'))).toBe(true),
        { timeout: 15_000, interval: 100 },
      );
      expect(linesOf(stalledId).some((line) => line.includes('"archive written"'))).toBe(false);
      stalled.request.destroy();
    } finally {
      archiveLimits.stalledMs = stalledMs;
    }
    expect((await getArchive(founder, company.id)).status).toBe(200);
  });
});

describe("papers in object storage", () => {
  let s3: S3rver;
  let directory: string;
  const bucket = "archive-papers";
  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), "quorum-archive-s3-"));
    s3 = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
    const address = (await s3.run()) as AddressInfo;
    const key = "S3RVER:S3RVER";
    await ctx.db.insert(platformServices).values({
      serviceName: "Storage",
      serviceKeyEncrypted: encryptSecret(key, ctx.deps.appSecret),
      serviceKeyPreview: key.slice(0, 8),
      serviceUrl: `http://127.0.0.1:${address.port}/${bucket}`,
      isEnabled: true,
    });
  });
  afterAll(async () => {
    await ctx.db.delete(platformServices).where(eq(platformServices.serviceName, "Storage"));
    await s3.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it("are read from the bucket they were written to", async () => {
    const { founder, company } = await ctx.board("Bucket Board Ltd");
    const paper = await uploadPdf(founder, "Stored away.pdf", "Stored away", 2);
    const [stored] = await ctx.db.select().from(documentFiles).where(eq(documentFiles.documentId, paper.id));
    expect(stored!.storage).toBe("s3");
    const response = await getArchive(founder, company.id);
    expect(response.status).toBe(200);
    const entry = (await unzip(response.body as Buffer)).find((each) => each.path.endsWith("v1 Stored away.pdf"));
    expect(entry!.bytes).toEqual(paper.bytes);
    expect((await verifyArchive(await onDisk(response.body as Buffer))).code).toBe(0);
  });
});
