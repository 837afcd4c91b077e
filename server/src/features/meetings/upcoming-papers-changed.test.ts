import { eq } from "drizzle-orm";
import { documentPageReads, documents, documentVersions } from "../../db/schema";
import { agendaItemsFixtures } from "../../testing/agenda-items-fixtures";
import type { SignedUp } from "../../testing/test-context";
import { useTestContext } from "../../testing/test-context";

const ctx = useTestContext();
const { api, setup, schedule, putAgenda, paper } = agendaItemsFixtures(ctx);

/** A paper with `versions` versions (the rows a replacement leaves). */
async function paperWithVersions(companyId: number, versions: number): Promise<number> {
  const id = await paper(companyId);
  for (let version = 1; version <= versions; version += 1) {
    await ctx.db
      .insert(documentVersions)
      .values({ documentId: id, version, fileType: "application/pdf", fileSize: 10, uploadedAt: ctx.clock.now() });
  }
  await ctx.db.update(documents).set({ version: versions }).where(eq(documents.id, id));
  return id;
}

const read = (user: SignedUp, documentId: number, version: number) =>
  ctx.db.insert(documentPageReads).values({ userId: user.id, documentId, version, page: 1, firstAt: ctx.clock.now() });

const upcoming = async (user: SignedUp, companyId: number) => {
  const response = await api().get(`/api/companies/${companyId}/meetings/upcoming`).set("Authorization", user.bearer);
  expect(response.status).toBe(200);
  return Object.fromEntries(
    (response.body as { id: number; papersChanged: boolean }[]).map((meeting) => [meeting.id, meeting.papersChanged]),
  );
};

describe("GET /api/companies/:companyId/meetings/upcoming: papersChanged", () => {
  it("flags a meeting whose agenda paper the caller read in an earlier version, for that caller alone", async () => {
    const { founder, company, creator, other, meetingId } = await setup();
    const replaced = await paperWithVersions(company.id, 2);
    await putAgenda(founder, meetingId, [{ title: "Accounts", durationMinutes: 15, documentIds: [replaced] }]);
    await read(other, replaced, 1);
    // Read in its latest version: nothing changed since.
    await read(creator, replaced, 2);

    expect(await upcoming(other, company.id)).toEqual({ [meetingId]: true });
    expect(await upcoming(creator, company.id)).toEqual({ [meetingId]: false });
    // Never opened: nothing has changed since they read it.
    expect(await upcoming(founder, company.id)).toEqual({ [meetingId]: false });

    await read(other, replaced, 2);
    expect(await upcoming(other, company.id)).toEqual({ [meetingId]: false });
  });

  it("costs one query more than the list, whatever the number of meetings and papers", async () => {
    const { founder, company, other, meetingId } = await setup();
    // On Postgres the notifications that clear the kept lists after a write arrive on their own time, and one arriving
    // between two reads makes the second refill its list: a read's cost is taken once two reads in a row agree.
    const count = () => ctx.countQueries(() => upcoming(other, company.id));
    const settledCount = async () => {
      let previous = -1;
      await vi.waitFor(
        async () => {
          const now = await count();
          const settled = now === previous;
          previous = now;
          expect(settled).toBe(true);
        },
        { timeout: 5_000 },
      );
      return previous;
    };
    const one = await settledCount();

    for (let index = 0; index < 3; index += 1) {
      const another = await schedule(founder, "1. Item (5 min)");
      const papers = [await paperWithVersions(company.id, 2), await paperWithVersions(company.id, 3)];
      await putAgenda(founder, another, [{ title: "Papers", durationMinutes: 15, documentIds: papers }]);
      for (const id of papers) await read(other, id, 1);
    }
    const unchanged = await paperWithVersions(company.id, 2);
    await putAgenda(founder, meetingId, [{ title: "Papers", durationMinutes: 15, documentIds: [unchanged] }]);
    // Once every late notification has come, a read of four meetings and their papers costs what a read of one did.
    await vi.waitFor(async () => expect(await count()).toBe(one), { timeout: 5_000 });
    expect(Object.values(await upcoming(other, company.id))).toEqual([false, true, true, true]);
  });
});
