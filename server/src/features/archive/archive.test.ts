import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import request from "supertest";
import { createInterface } from "node:readline";
import { checkExportLines } from "../../../../scripts/ops/audit-export-check";
import { verifyArchive } from "../../../../scripts/ops/verify-archive";
import type { ResolutionDetails } from "../../../../shared/resolutions";
import { createApp } from "../../app";
import { checkWrittenCertificate } from "../../crypto/written-certificate-check";
import { archiveFiles, archiveFixtures, rezipWithFlippedByte, unzip, type ZipEntryRead } from "../../testing/archive-fixtures";
import { minutesTestStart } from "../../testing/minutes-fixtures";
import { auditFixtures } from "../../testing/audit-fixtures";
import { useTestContext } from "../../testing/test-context";
import { versionFixtures } from "../../testing/version-fixtures";
import { chainBatchSize } from "../audit/audit.service";
import { certificateFromPdf } from "../resolutions/certificate-pdfs.service";
import type { ArchiveManifest } from "./archive.service";

// The board's archive as its founder downloads it: unzipped and read back file by file, checked by the offline
// verifier, and a copy with one byte changed refused by it.

const ctx = useTestContext();
afterEach(() => ctx.clock.set(minutesTestStart));
const { api, getArchive, seedRecord } = archiveFixtures(ctx);
const { upload } = versionFixtures(ctx);
const { record } = auditFixtures(ctx);
const onDisk = archiveFiles();

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const text = (entry: ZipEntryRead | undefined) => entry!.bytes.toString("utf8");
const download = async (bearer: string, path: string) =>
  (await api().get(path).set("Authorization", bearer).responseType("blob")).body as Buffer;

describe("GET /api/companies/:companyId/archive.zip", () => {
  it("holds the whole record, every file as its manifest says, the trail up to the head and every certificate", async () => {
    const seeded = await seedRecord("Archive Holdings Ltd");
    const { fay, company, papers, paperBytes, meetingId, resolutionIds } = seeded;
    const response = await getArchive(fay, company.id);
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("application/zip");
    expect(response.headers["content-disposition"]).toMatch(/^attachment; filename="Archive-Holdings-Ltd-archive-2026-06-11\.zip"/);
    const zip = response.body as Buffer;
    const entries = await unzip(zip);
    const byPath = new Map(entries.map((entry) => [entry.path, entry]));

    // audit.jsonl first, manifest.json last, listing every other file with its hash and size.
    expect(entries[0]!.path).toBe("audit.jsonl");
    expect(entries.at(-1)!.path).toBe("manifest.json");
    const manifest = JSON.parse(text(entries.at(-1))) as ArchiveManifest;
    expect(manifest).toMatchObject({ companyId: company.id, companyName: "Archive Holdings Ltd", createdAt: "2026-06-11T09:00:00.000Z" });
    expect(manifest.files).toEqual(
      entries.slice(0, -1).map((entry) => ({ path: entry.path, sha256: sha256(entry.bytes), bytes: entry.bytes.length })),
    );
    for (const entry of entries) {
      expect(entry.path.split("/")).not.toContain("..");
      expect(entry.path.startsWith("/") || [...entry.path].some((character) => character < " " || "\u202e\\".includes(character))).toBe(
        false,
      );
    }

    // The trail exactly as the export writes it, up to the head the manifest names; the archive's own event follows it.
    const verdict = await checkExportLines(createInterface({ input: Readable.from([entries[0]!.bytes]) }));
    expect(verdict).toMatchObject({ ok: true, headHash: manifest.auditHeadHash, count: manifest.auditCount });
    const exported = await api().get(`/api/companies/${company.id}/audit/export`).set("Authorization", fay.bearer).buffer(true);
    const exportedLines = exported.text.trimEnd().split("\n");
    const archivedLines = text(entries[0]).trimEnd().split("\n");
    expect(archivedLines.slice(0, -1)).toEqual(exportedLines.slice(0, manifest.auditCount));
    expect(JSON.parse(archivedLines.at(-1)!)).toEqual({ headHash: manifest.auditHeadHash, count: manifest.auditCount });
    const newest = await api().get(`/api/companies/${company.id}/audit`).query({ limit: 1 }).set("Authorization", fay.bearer);
    expect(newest.body.events[0]).toMatchObject({
      seq: manifest.auditCount + 1,
      prevHash: manifest.auditHeadHash,
      action: "company.archive_exported",
      actorId: fay.id,
      details: { auditHeadHash: manifest.auditHeadHash, auditCount: manifest.auditCount },
    });

    // Every version of every paper, under the earliest meeting whose agenda lists it, or the library.
    const meeting = `papers/2026-06-10 Q3 Board Meeting (${meetingId})`;
    expect(byPath.get(`${meeting}/Financial/Budget 2026 (${papers.budget})/v1 Budget 2026.pdf`)!.bytes).toEqual(paperBytes.budgetV1);
    expect(byPath.get(`${meeting}/Financial/Budget 2026 (${papers.budget})/v2 Budget 2026.pdf`)!.bytes).toEqual(paperBytes.budgetV2);
    expect(byPath.get(`${meeting}/Financial/Forecast (${papers.forecast})/v1 Forecast.pdf`)!.bytes).toEqual(paperBytes.forecast);
    expect(text(byPath.get(`papers/Library/Legal/Board notes (${papers.note})/v1 Board notes.txt`))).toBe("Remember the auditors.");
    const odd = entries.find((entry) => entry.path.endsWith(`(${papers.odd})/v1 .._.._etc_passwd_gnp.pdf`));
    expect(odd?.path).toBe(`papers/Library/Financial/_.._etc_passwd_gnp (${papers.odd})/v1 .._.._etc_passwd_gnp.pdf`);
    expect(odd!.bytes).toEqual(paperBytes.odd);
    expect(entries.filter((entry) => entry.path.startsWith("papers/"))).toHaveLength(5);

    // The approved minutes as filed.
    const minutesEntry = entries.find((entry) => entry.path.startsWith(`minutes/2026-06-10 Q3 Board Meeting (${meetingId})/`));
    expect(minutesEntry!.bytes).toEqual(await download(fay.bearer, `/api/documents/${seeded.minutesDocumentId}/download`));

    // Each decided resolution's certificate as JSON and as a PDF carrying the same inside; none for the pending one.
    const voted = (await api().get(`/api/resolutions/${resolutionIds.voted}`).set("Authorization", fay.bearer)).body as ResolutionDetails;
    const votedFolder = `certificates/Approve the 2026 budget (${resolutionIds.voted})`;
    expect(JSON.parse(text(byPath.get(`${votedFolder}/certificate.json`)))).toEqual(voted.certificate);
    expect(await certificateFromPdf(new Uint8Array(byPath.get(`${votedFolder}/certificate.pdf`)!.bytes))).toEqual(voted.certificate);
    const writtenFolder = `certificates/Open a Berlin office (${resolutionIds.written})`;
    const writtenCertificate = JSON.parse(text(byPath.get(`${writtenFolder}/certificate.json`)));
    expect(await checkWrittenCertificate(writtenCertificate)).toMatchObject({ valid: true });
    const filed = await api().get("/api/documents").query({ category: "Resolution Certificates" }).set("Authorization", fay.bearer);
    expect(byPath.get(`${writtenFolder}/certificate.pdf`)!.bytes).toEqual(
      await download(fay.bearer, `/api/documents/${filed.body[0].id}/download`),
    );
    expect(entries.filter((entry) => entry.path.startsWith("certificates/"))).toHaveLength(4);

    // The records, as CSV and JSON: the same rows, a spreadsheet formula neutralised in the CSV only.
    const votes = JSON.parse(text(byPath.get("records/votes.json"))) as { voter: string; vote: string }[];
    expect(votes.map((vote) => [vote.voter, vote.vote])).toEqual([
      ["Fay Founder", "yes"],
      ["Ann Adams", "yes"],
      ["Bob Brown", "no"],
    ]);
    const attendance = JSON.parse(text(byPath.get("records/attendance.json"))) as { meetingId: number; name: string; status: string }[];
    expect(attendance.filter((row) => row.meetingId === meetingId).map((row) => [row.name, row.status])).toEqual([
      ["Ann Adams", "remote"],
      ["Bob Brown", "absent"],
      ["Fay Founder", "present"],
      ["Obi Observer", "present"],
      ["Gus Guest", "guest"],
    ]);
    const title = '=HYPERLINK("http://evil.example","Send the budget, "now"")';
    expect(JSON.parse(text(byPath.get("records/action-items.json")))[0]).toMatchObject({ title, owner: "Ann Adams" });
    expect(text(byPath.get("records/action-items.csv")).split("\r\n")[1]).toContain(
      `,"'=HYPERLINK(""http://evil.example"",""Send the budget, ""now"""")",`,
    );
    const resolutions = text(byPath.get("records/resolutions.csv")).split("\r\n");
    expect(resolutions[0]).toBe(
      "id,title,description,procedure,type,status,proposedById,proposedBy,createdAt,deadline,decidedAt,explanation,textSha256,certificateFolder",
    );
    expect(resolutions.slice(1, -1)).toHaveLength(3);
    expect(resolutions[1]).toContain(`,'=That the budget be approved.,vote,Ordinary,approved,`);
    for (const table of ["resolutions", "votes", "attendance", "action-items", "meetings", "agenda-items"]) {
      expect(byPath.has(`records/${table}.csv`) && byPath.has(`records/${table}.json`), table).toBe(true);
    }
    expect(text(byPath.get("README.txt"))).toContain("filed once, under the earliest of them");

    // The offline check holds; with one byte of a paper changed it names that paper.
    const checked = await verifyArchive(await onDisk(zip));
    expect(checked).toMatchObject({ code: 0 });
    expect(checked.lines[0]).toMatch(/^ok: 24 files .*2 certificates hold \(1 written, 1 voted\)$/);
    const forecastPath = `${meeting}/Financial/Forecast (${papers.forecast})/v1 Forecast.pdf`;
    const tampered = await verifyArchive(await onDisk(await rezipWithFlippedByte(entries, forecastPath, 100)));
    expect(tampered.code).toBe(1);
    expect(tampered.lines).toEqual([
      expect.stringMatching(new RegExp(`^broken: ${forecastPath.replace(/[()]/g, "\\$&")}: its SHA-256 is `)),
    ]);
  });

  it("reads a fixed number of queries for its listings, whatever the company's size: only each file's bytes add reads", async () => {
    const small = await ctx.board("Few Papers Ltd");
    const large = await ctx.board("Many Papers Ltd");
    for (const board of [small, large]) await upload(board.founder, "Only.txt", Buffer.from("one\n"));
    const extraPapers = 5;
    for (let index = 0; index < extraPapers; index += 1) await upload(large.founder, `Paper ${index}.txt`, Buffer.from(`paper ${index}\n`));
    const queries = async (board: typeof small) =>
      ctx.countQueries(async () => expect((await getArchive(board.founder, board.company.id)).status).toBe(200));
    const few = await queries(small);
    const many = await queries(large);
    // A file stored in the database is read a chunk at a time: one read for a small file.
    expect(many - few).toBe(extraPapers);
  });

  it("ends unfinished, never as a whole zip, when the audit trail cannot be read to its head", async () => {
    const { founder, company } = await ctx.board("Cut Short Archive Ltd");
    for (let index = 0; index < chainBatchSize + 5; index += 1) await record(company.id, { details: { index } });
    // The first batch of the trail is read; the next read fails, as a lost connection would.
    let failing = false;
    const flaky = new Proxy(ctx.db, {
      get: (target, property) =>
        property === "execute"
          ? (...args: Parameters<typeof target.execute>) =>
              failing ? Promise.reject(new Error("connection lost")) : target.execute(...args)
          : Reflect.get(target, property, target),
    });
    ctx.whenQuery(/from audit_events e/, () => (failing = true));
    const logged = ctx.logs.length;
    const outcome: unknown = await request(createApp({ ...ctx.deps, db: flaky }))
      .get(`/api/companies/${company.id}/archive.zip`)
      .set("Authorization", founder.bearer)
      .responseType("blob")
      .then(
        (response) => response,
        (error: unknown) => error,
      );
    // The answer ends without the zip's directory: no reader takes it for an archive.
    expect(outcome).toBeInstanceOf(Error);
    const lines = ctx.logs.slice(logged);
    expect(lines.some((line) => line.includes('"archive\'s audit export cut short"'))).toBe(true);
    expect(lines.some((line) => line.includes('"archive written"'))).toBe(false);
  });

  it("answers the archive of an empty company: its trail, readme, records and manifest", async () => {
    const { founder, company } = await ctx.board("Empty Board Ltd");
    const response = await getArchive(founder, company.id);
    expect(response.status).toBe(200);
    const entries = await unzip(response.body as Buffer);
    expect(entries.map((entry) => entry.path)).toEqual([
      "audit.jsonl",
      "README.txt",
      ...["resolutions", "votes", "attendance", "action-items", "meetings", "agenda-items"].flatMap((name) => [
        `records/${name}.csv`,
        `records/${name}.json`,
      ]),
      "manifest.json",
    ]);
    expect(text(entries.find((entry) => entry.path === "records/votes.json"))).toBe("[]\n");
    expect((await verifyArchive(await onDisk(response.body as Buffer))).code).toBe(0);
    // The same company's second archive: the first one's event is in its trail now.
    const again = JSON.parse(text((await unzip((await getArchive(founder, company.id)).body as Buffer)).at(-1))) as ArchiveManifest;
    expect(again.auditCount).toBe(JSON.parse(text(entries.at(-1))).auditCount + 1);
  });
});
