import { and, count, eq, sql, type SQL } from "drizzle-orm";
import { changeNoteRequiredMessage, maxChangeNoteLength } from "../../../../shared/paper-versions";
import { minutesCategory, resolutionCertificatesCategory } from "../../../../shared/meeting-model";
import { auditEvents, documents, notifications } from "../../db/schema";
import { manyPagesPdf } from "../../testing/hostile-pdfs";
import { samplePdf, samplePng } from "../../testing/sample-files";
import { scheduleMeeting } from "../../testing/factories";
import { useTestContext } from "../../testing/test-context";
import { versionFixtures } from "../../testing/version-fixtures";
import { recordNotReplaceableMessage } from "./versions.service";

const ctx = useTestContext();
const { api, upload, replace, history, downloadVersion, download, storedRows } = versionFixtures(ctx);

/** What a refused replacement must leave as it was: the paper's row, its history, its bytes, the stored rows. */
async function snapshot(user: { bearer: string }, id: number) {
  const [row] = await ctx.db.select().from(documents).where(eq(documents.id, id));
  return {
    row,
    history: (await history(user, id)).body,
    bytes: ((await download(user, id)).body as Buffer).toString("base64"),
    stored: await storedRows(),
  };
}

describe("a replacement refused", () => {
  it("fails the upload checks (4xx) and leaves the paper, its history and its download as they were", async () => {
    const { founder } = await ctx.board();
    const paper = await upload(founder, "Accounts.pdf", samplePdf());
    const before = await snapshot(founder, paper.id);
    const overLimit = manyPagesPdf({ pages: 10_000 });
    const cases: [string, Buffer, number][] = [
      // Not what it claims, a type not accepted, empty, and a PDF beyond the bounds a PDF is held to.
      ["accounts.pdf", samplePng(), 415],
      ["accounts.exe", Buffer.from("MZ"), 415],
      ["accounts.pdf", Buffer.alloc(0), 400],
      ["accounts.pdf", overLimit, 400],
    ];
    for (const [fileName, bytes, status] of cases) {
      const refused = await replace(founder, paper.id, "New figures", fileName, bytes);
      expect(refused.status, fileName).toBe(status);
      expect(refused.body.message, fileName).toEqual(expect.any(String));
    }
    expect(await snapshot(founder, paper.id)).toEqual(before);
  });

  it("needs a change note of 1–500 characters without control characters, and a file", async () => {
    const { founder } = await ctx.board();
    const paper = await upload(founder, "Minutes.txt", Buffer.from("draft\n"));
    const before = await snapshot(founder, paper.id);
    for (const note of [null, "", "   ", "x".repeat(maxChangeNoteLength + 1), "bell\u0007"]) {
      const refused = await replace(founder, paper.id, note, "Minutes.txt", Buffer.from("final\n"));
      expect(refused.status, String(note)).toBe(400);
      expect(refused.body.errors?.[0]?.path, String(note)).toBe("note");
    }
    expect((await replace(founder, paper.id, null, "Minutes.txt", Buffer.from("final\n"))).body.message).toBe(changeNoteRequiredMessage);
    const noFile = await api().post(`/api/documents/${paper.id}/versions`).set("Authorization", founder.bearer).field("note", "No file");
    expect(noFile.status).toBe(400);
    const json = await api().post(`/api/documents/${paper.id}/versions`).set("Authorization", founder.bearer).send({ note: "JSON" });
    expect(json.status).toBe(400);
    expect(await snapshot(founder, paper.id)).toEqual(before);
    expect((await replace(founder, paper.id, "x".repeat(maxChangeNoteLength), "Minutes.txt", Buffer.from("final\n"))).status).toBe(201);
  });

  it("is 404 for another company's paper (replace, history, a version's bytes) and 409 for a note or a meeting", async () => {
    const { founder } = await ctx.board();
    const other = await ctx.board("Elsewhere Ltd");
    const theirs = await upload(other.founder, "Theirs.pdf", samplePdf());
    const before = await snapshot(other.founder, theirs.id);
    expect((await replace(founder, theirs.id, "Mine", "Theirs.pdf", samplePdf())).status).toBe(404);
    expect((await history(founder, theirs.id)).status).toBe(404);
    expect((await downloadVersion(founder, theirs.id, 1)).status).toBe(404);
    expect((await downloadVersion(founder, 999_999, 1)).status).toBe(404);
    for (const version of ["0", "x", "1.5", "99999999999"])
      expect((await downloadVersion(other.founder, theirs.id, version)).status).toBe(404);
    expect(await snapshot(other.founder, theirs.id)).toEqual(before);

    const note = await api().post("/api/documents").set("Authorization", founder.bearer).send({ name: "Memo", content: "Plain text" });
    expect(note.status).toBe(201);
    const refused = await replace(founder, note.body.id, "As a file", "memo.txt", Buffer.from("memo\n"));
    expect(refused.status).toBe(409);
    expect((await history(founder, note.body.id)).body).toEqual([]);
    const meetingId = await scheduleMeeting(ctx.app, founder, new Date(ctx.clock.now().getTime() + 86_400_000));
    expect((await replace(founder, meetingId, "As a file", "meeting.pdf", samplePdf())).status).toBe(409);
  });

  it("is 409 for a record Quorum filed (approved minutes, a resolution's certificate), even to its uploader", async () => {
    const { founder } = await ctx.board();
    for (const category of [minutesCategory, resolutionCertificatesCategory]) {
      const record = await upload(founder, "Record.pdf", samplePdf());
      // As Quorum files it: its uploader is whoever approved or signed.
      await ctx.db.update(documents).set({ category }).where(eq(documents.id, record.id));
      const before = await snapshot(founder, record.id);
      const refused = await replace(founder, record.id, "Corrected", "record.pdf", samplePdf());
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe(recordNotReplaceableMessage);
      expect(await snapshot(founder, record.id)).toEqual(before);
    }
  });
});

/**
 * A write inside the replacement's transaction made to fail, by a trigger this test adds to the table it writes to:
 * the new version's row (its first write of the new version) or the board's notification (its last write).
 */
const failingWrites: [write: string, table: SQL, when: SQL][] = [
  ["the new version's row", sql`document_versions`, sql`new.version > 1`],
  ["the board's notification, its last write", sql`notifications`, sql`new.title like 'New version:%'`],
];

describe("a replacement that fails inside its transaction", () => {
  it.each(failingWrites)(
    "fails at %s: a clean 500, and the paper, its history, its bytes and the stored rows as they were",
    async (_write, table, when) => {
      const { founder, company, member } = await ctx.board();
      const ann = await member("member");
      const oldBytes = Buffer.from("the figures as first circulated\n");
      const paper = await upload(founder, "Forecast.txt", oldBytes);
      const before = await snapshot(founder, paper.id);
      const echoes = async () => {
        const [[replaced], [told]] = await Promise.all([
          ctx.db
            .select({ n: count() })
            .from(auditEvents)
            .where(and(eq(auditEvents.companyId, company.id), eq(auditEvents.action, "document.replaced"))),
          ctx.db.select({ n: count() }).from(notifications).where(eq(notifications.userId, ann.id)),
        ]);
        return { replaced: replaced!.n, told: told!.n };
      };
      const echoesBefore = await echoes();

      await ctx.db.execute(sql`create function refuse_for_test() returns trigger language plpgsql as $$
      begin raise exception 'refused for the test'; end $$`);
      await ctx.db.execute(sql`create trigger refuse_for_test before insert on ${table} for each row when (${when})
      execute function refuse_for_test()`);
      try {
        const failed = await replace(founder, paper.id, "Revised forecast", "Forecast.txt", Buffer.from("the revised figures\n"));
        expect(failed.status).toBe(500);
        expect(failed.body).toEqual({ message: "Internal error", requestId: failed.headers["x-request-id"] });
      } finally {
        await ctx.db.execute(sql`drop trigger if exists refuse_for_test on ${table}`);
        await ctx.db.execute(sql`drop function if exists refuse_for_test()`);
      }
      const after = await snapshot(founder, paper.id);
      expect(after).toEqual(before);
      expect(Buffer.from(after.bytes, "base64")).toEqual(oldBytes);
      expect(await echoes()).toEqual(echoesBefore);

      // Nothing was held or spent: the next replacement takes the row at once and is version 2.
      const next = await replace(founder, paper.id, "Revised forecast", "Forecast.txt", Buffer.from("the revised figures\n"));
      expect(next.status).toBe(201);
      expect(next.body).toMatchObject({ version: 2 });
      expect((await history(founder, paper.id)).body.map((version: { version: number }) => version.version)).toEqual([2, 1]);
    },
  );
});
