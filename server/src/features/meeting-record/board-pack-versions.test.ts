import { eq } from "drizzle-orm";
import { meetings } from "../../db/schema";
import { packFixtures, paperPdf, readPack } from "../../testing/board-pack-fixtures";
import { useTestContext } from "../../testing/test-context";
import { versionFixtures } from "../../testing/version-fixtures";

const ctx = useTestContext();
const { upload, schedule, putAgenda, download } = packFixtures(ctx);
const { replace } = versionFixtures(ctx);

async function firstBuiltAt(meetingId: number): Promise<Date | null> {
  const [row] = await ctx.db.select({ at: meetings.packFirstBuiltAt }).from(meetings).where(eq(meetings.documentId, meetingId));
  return row!.at;
}

describe("the board pack of a meeting whose papers change", () => {
  it("merges each paper's latest version under a new tag; its agenda names each paper's version, its cover what was replaced since it was first issued", async () => {
    const { founder } = await ctx.board("Versions Ltd", { firstName: "Fay", lastName: "Founder" });
    const meetingId = await schedule(founder, []);
    const budget = await upload(founder, "Budget.pdf", "application/pdf", await paperPdf("Budget v1", 2));
    const risks = await upload(founder, "Risks.pdf", "application/pdf", await paperPdf("Risks v1", 1));
    await putAgenda(founder, meetingId, [
      { title: "Budget", durationMinutes: 20, documentIds: [budget], purpose: "decision" },
      { title: "Risks", durationMinutes: 10, documentIds: [risks], purpose: "noting" },
    ]);
    // Replaced before the pack was ever built: nothing to list on the cover, but the agenda names its version.
    ctx.clock.set("2026-06-01T16:30:00.000Z");
    await replace(founder, risks, "Early fix", "Risks.pdf", await paperPdf("Risks v2", 1));
    expect(await firstBuiltAt(meetingId)).toBeNull();

    ctx.clock.set("2026-06-02T08:00:00.000Z");
    const first = await download(founder, meetingId);
    expect(first.status).toBe(200);
    expect(await firstBuiltAt(meetingId)).toEqual(new Date("2026-06-02T08:00:00.000Z"));
    const firstPack = await readPack(first.body as Buffer);
    const [cover, agenda] = firstPack.pages;
    expect(cover!.text).not.toContain("Replaced since");
    expect(agenda!.text).toContain("For decision");
    expect(agenda!.text).toContain("For noting");
    // The agenda names each paper at its latest version, as the app does: a first version by its name alone.
    expect(agenda!.text).toContain("Papers: Risks.pdf (v2 · replaced 1 Jun 16:30 UTC)");
    expect(agenda!.text).toContain("Papers: Budget.pdf");
    expect(agenda!.text).not.toContain("Budget.pdf (v");
    // So do the items' own pages.
    const sectionOf = (pack: typeof firstPack, title: string) => pack.pages.find((page) => page.text.includes(`ITEM ${title}`))!.text;
    expect(sectionOf(firstPack, "2 OF 2")).toContain("• Risks.pdf (v2 · replaced 1 Jun 16:30 UTC)");
    expect(sectionOf(firstPack, "1 OF 2")).toContain("• Budget.pdf");
    expect(sectionOf(firstPack, "1 OF 2")).not.toContain("Budget.pdf (v");
    const text = firstPack.pages.map((page) => page.text).join("\n");
    expect(text).toContain("Budget v1 page 2");
    expect(text).toContain("Risks v2 page 1");
    // Building it again from the store keeps its tag: setting the first build's time did not change what it shows.
    expect((await download(founder, meetingId, first.headers.etag as string)).status).toBe(304);

    ctx.clock.set("2026-06-02T14:05:00.000Z");
    expect((await replace(founder, budget, "Figures restated", "Budget.pdf", await paperPdf("Budget v2", 3))).status).toBe(201);
    ctx.clock.set("2026-06-02T15:00:00.000Z");
    expect((await replace(founder, budget, "Typo on page 3", "Budget.pdf", await paperPdf("Budget v3", 3))).status).toBe(201);
    const second = await download(founder, meetingId, first.headers.etag as string);
    expect(second.status).toBe(200);
    expect(second.headers.etag).not.toBe(first.headers.etag);
    const secondPack = await readPack(second.body as Buffer);
    expect(secondPack.pages[0]!.text).toContain(
      "Replaced since this pack was first issued: Budget.pdf — v3, 2 Jun 15:00 UTC, Typo on page 3",
    );
    expect(secondPack.pages[0]!.text).not.toContain("Risks.pdf —");
    expect(secondPack.pages[1]!.text).toContain("Papers: Budget.pdf (v3 · replaced 2 Jun 15:00 UTC)");
    expect(secondPack.pages[1]!.text).toContain("Papers: Risks.pdf (v2 · replaced 1 Jun 16:30 UTC)");
    expect(sectionOf(secondPack, "1 OF 2")).toContain("• Budget.pdf (v3 · replaced 2 Jun 15:00 UTC)");
    const merged = secondPack.pages.map((page) => page.text).join("\n");
    expect(merged).toContain("Budget v3 page 3");
    expect(merged).not.toContain("Budget v1");
    expect(await firstBuiltAt(meetingId)).toEqual(new Date("2026-06-02T08:00:00.000Z"));
  }, 60_000);

  it("answers byte ranges of the pack, built or stored, and 416 outside it", async () => {
    const { founder } = await ctx.board("Ranges Ltd");
    const meetingId = await schedule(founder, []);
    const paper = await upload(founder, "Paper.pdf", "application/pdf", await paperPdf("Paper", 4));
    await putAgenda(founder, meetingId, [{ title: "Item", durationMinutes: 10, documentIds: [paper] }]);
    const ranged = (range: string, ifRange?: string) => {
      const call = download(founder, meetingId).set("Range", range);
      return ifRange ? call.set("If-Range", ifRange) : call;
    };
    // The first request builds the pack and answers the range of it.
    const built = await ranged("bytes=0-4");
    expect(built.status).toBe(206);
    expect(built.headers["accept-ranges"]).toBe("bytes");
    expect((built.body as Buffer).toString("latin1")).toBe("%PDF-");
    const size = Number(/\/(\d+)$/.exec(built.headers["content-range"] as string)![1]);
    const whole = await download(founder, meetingId);
    expect(whole.headers["content-length"]).toBe(String(size));
    // Later ones read it from the store: a range of it, its last bytes, or (If-Range naming another tag) all of it.
    const tail = await ranged("bytes=-6");
    expect(tail.status).toBe(206);
    expect(tail.headers["content-range"]).toBe(`bytes ${size - 6}-${size - 1}/${size}`);
    expect(Buffer.compare(tail.body as Buffer, (whole.body as Buffer).subarray(size - 6))).toBe(0);
    const middle = await ranged("bytes=100-199", whole.headers.etag as string);
    expect(middle.status).toBe(206);
    expect(Buffer.compare(middle.body as Buffer, (whole.body as Buffer).subarray(100, 200))).toBe(0);
    expect((await ranged("bytes=100-199", '"bp-stale"')).status).toBe(200);
    expect((await ranged("bytes=0-1,5-6")).status).toBe(200);
    const outside = await ranged(`bytes=${size}-`);
    expect(outside.status).toBe(416);
    expect(outside.headers["content-range"]).toBe(`bytes */${size}`);
  }, 60_000);
});
