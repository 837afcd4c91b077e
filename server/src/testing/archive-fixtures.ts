import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import request from "supertest";
import { fromBufferPromise } from "yauzl";
import { ZipFile } from "yazl";
import { actionItems, resolutions } from "../db/schema";
import { fileDecidedCertificates } from "../features/resolutions/written-certificate-file";
import { scheduleMeeting } from "./factories";
import { afterTheMeeting, minutesFixtures, recordMeetingStart } from "./minutes-fixtures";
import { resolutionFixtures } from "./resolution-fixtures";
import type { TestContext } from "./test-context";
import { linesPdf, versionFixtures } from "./version-fixtures";
import { writtenCertificateFixture } from "./written-certificate-fixtures";

// What the tests of the board's archive share: a company with a whole record, its archive downloaded, unzipped, and
// rewritten with one byte changed.

export interface ZipEntryRead {
  path: string;
  bytes: Buffer;
}

/** Every entry of a zip in its order, with its bytes. */
export async function unzip(zip: Buffer): Promise<ZipEntryRead[]> {
  const file = await fromBufferPromise(zip, { lazyEntries: true, validateEntrySizes: true });
  const entries: ZipEntryRead[] = [];
  for await (const entry of file.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const chunk of await file.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    entries.push({ path: entry.fileName, bytes: Buffer.concat(chunks) });
  }
  return entries;
}

/** The same entries zipped again, in order, with one byte of the entry at `path` flipped. */
export async function rezipWithFlippedByte(entries: ZipEntryRead[], path: string, at = 0): Promise<Buffer> {
  const zip = new ZipFile();
  for (const entry of entries) {
    const bytes = Buffer.from(entry.bytes);
    if (entry.path === path) bytes[at] = bytes[at]! ^ 0x01;
    zip.addBuffer(bytes, entry.path);
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A temporary directory for archives written to disk, removed after the file's tests. */
export function archiveFiles() {
  let directory = "";
  let count = 0;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), "quorum-archive-"));
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));
  return async (bytes: Buffer): Promise<string> => {
    count += 1;
    const path = join(directory, `archive-${count}.zip`);
    await writeFile(path, bytes);
    return path;
  };
}

export function archiveFixtures(ctx: TestContext) {
  const api = () => request(ctx.app);
  const versions = versionFixtures(ctx);
  const minutes = minutesFixtures(ctx);
  const votes = resolutionFixtures(ctx);

  const getArchive = (user: { bearer: string }, companyId: number) =>
    api().get(`/api/companies/${companyId}/archive.zip`).set("Authorization", user.bearer).responseType("blob");

  /** A written resolution decided with its certificate filed in the library, as the deciding request files it. */
  async function decidedWritten(companyId: number, proposerId: number): Promise<number> {
    const [row] = await ctx.db
      .insert(resolutions)
      .values({
        companyId,
        title: "Open a Berlin office",
        description: "Resolved: to lease two floors.",
        type: "Ordinary",
        procedure: "written",
        status: "approved",
        deadline: new Date("2026-06-15T09:00:00.000Z"),
        createdBy: proposerId,
      })
      .returning({ id: resolutions.id });
    const certificate = writtenCertificateFixture({
      companyId,
      resolutionId: row!.id,
      title: "Open a Berlin office",
      directors: [
        { name: "Fay Founder", decision: "agree" },
        { name: "Ann Adams", decision: "agree" },
      ],
    });
    await ctx.db
      .update(resolutions)
      .set({ writtenCertificate: certificate, textSha256: certificate.textSha256, decidedAt: new Date(certificate.decidedAt) })
      .where(eq(resolutions.id, row!.id));
    await fileDecidedCertificates(ctx.deps, { resolutionId: row!.id });
    return row!.id;
  }

  /**
   * A board with a whole record: papers (one replaced: two versions; one on two meetings' agendas; a note; one with a
   * name that is no safe file name), two meetings with agendas, attendance and an action item whose title a spreadsheet
   * would run, approved minutes, a resolution decided by its votes, a written one with its certificate, a pending one.
   */
  async function seedRecord(name: string) {
    const { founder: fay, company, member } = await ctx.board(name, { firstName: "Fay", lastName: "Founder" });
    const ann = await member("admin", { firstName: "Ann", lastName: "Adams" });
    const bob = await member("member", { firstName: "Bob", lastName: "Brown" });
    const obi = await member("observer", { firstName: "Obi", lastName: "Observer" });
    const budgetV1 = await linesPdf([["Budget 2026, first draft"]]);
    const budgetV2 = await linesPdf([["Budget 2026, as approved"], ["Appendix"]]);
    const budget = await versions.upload(fay, "Budget.pdf", budgetV1, "Budget 2026.pdf");
    expect((await versions.replace(fay, budget.id, "The approved figures", "Budget.pdf", budgetV2)).status).toBe(201);
    const forecastBytes = await linesPdf([["Forecast"]]);
    const forecast = await versions.upload(ann, "Forecast.pdf", forecastBytes);
    const oddName = "../../etc/passwd\u202egnp.pdf";
    const oddBytes = await linesPdf([["Odd"]]);
    const odd = await versions.upload(fay, "odd.pdf", oddBytes, oddName);
    const note = await api()
      .post("/api/documents")
      .set("Authorization", fay.bearer)
      .send({ name: "Board notes", category: "Legal", content: "Remember the auditors." });
    expect(note.status).toBe(201);

    const meetingId = await scheduleMeeting(ctx.app, fay, recordMeetingStart, {
      title: "Q3 Board Meeting",
      participants: [fay.id, ann.id, bob.id, obi.id],
    });
    const laterMeetingId = await scheduleMeeting(ctx.app, fay, new Date("2026-09-10T10:00:00.000Z"), {
      title: "Q4 Board Meeting",
      participants: [fay.id, ann.id],
    });
    const voted = await votes.created(fay, { title: "Approve the 2026 budget", description: "=That the budget be approved." });
    await votes.allVote([fay, ann, bob], voted, ["yes", "yes", "no"]);
    const pending = await votes.created(fay, { title: "Appoint a CFO", description: "That Jane Doe be appointed." });
    const written = await decidedWritten(company.id, fay.id);
    const agenda = (id: number, items: unknown[]) =>
      api().put(`/api/meetings/${id}/agenda`).set("Authorization", fay.bearer).send({ items });
    expect(
      (
        await agenda(meetingId, [
          { title: "Finance", durationMinutes: 45, presenterId: ann.id, documentIds: [budget.id, forecast.id], resolutionIds: [voted] },
          { title: "Any other business", purpose: "noting", durationMinutes: 15 },
        ])
      ).status,
    ).toBe(200);
    expect((await agenda(laterMeetingId, [{ title: "Budget review", durationMinutes: 30, documentIds: [budget.id] }])).status).toBe(200);
    await minutes.recordAttendance(
      meetingId,
      [
        { userId: fay.id, status: "present" },
        { userId: ann.id, status: "remote" },
        { userId: obi.id, status: "present" },
      ],
      ["Gus Guest"],
      fay.id,
    );
    await ctx.db.insert(actionItems).values({
      companyId: company.id,
      meetingId,
      title: '=HYPERLINK("http://evil.example","Send the budget, "now"")',
      ownerId: ann.id,
      dueDate: "2026-06-24",
      createdBy: fay.id,
    });
    ctx.clock.set(afterTheMeeting);
    expect((await minutes.draft(fay, meetingId)).status).toBe(200);
    expect((await minutes.circulate(fay, meetingId)).status).toBe(200);
    const approved = await minutes.approve(fay, meetingId, "chair");
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    return {
      fay,
      ann,
      bob,
      obi,
      company,
      meetingId,
      laterMeetingId,
      papers: { budget: budget.id, forecast: forecast.id, odd: odd.id, note: note.body.id as number },
      paperBytes: { budgetV1, budgetV2, forecast: forecastBytes, odd: oddBytes },
      oddName,
      resolutionIds: { voted, pending, written },
      minutesDocumentId: approved.body.documentId as number | null,
    };
  }

  return { api, getArchive, seedRecord, decidedWritten };
}
