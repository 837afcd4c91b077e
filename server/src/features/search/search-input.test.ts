import { eq, sql } from "drizzle-orm";
import request from "supertest";
import { emptySearchMessage, maxSearchQueryLength, searchPageSize, searchTooLongMessage } from "../../../../shared/search";
import { createApp } from "../../app";
import { actionItems, agendaItems, meetingMinutes, resolutions } from "../../db/schema";
import { limitTable, resolveLimits } from "../../limits";
import { scheduleMeeting } from "../../testing/factories";
import { searchFixtures } from "../../testing/search-fixtures";
import { useTestContext } from "../../testing/test-context";
import { linesPdf, versionFixtures } from "../../testing/version-fixtures";
import { badSearchCursorMessage } from "./search-cursor";
import { fromAfterToMessage, searchLimits, searchTooLongTakenMessage } from "./search.service";

const ctx = useTestContext();
const { upload } = versionFixtures(ctx);
const { found, searchAs } = searchFixtures(ctx);

/** `count` resolutions of the company saying "lighthouse" 1 to 5 times (so their ranks differ, and many tie). */
async function addResolutions(companyId: number, createdBy: number, count: number, word = "lighthouse") {
  if (count === 0) return [];
  const rows = await ctx.db
    .insert(resolutions)
    .values(
      Array.from({ length: count }, (_, index) => ({
        companyId,
        title: `Resolution ${index + 1}`,
        description: `That ${`${word} `.repeat((index % 5) + 1)}be kept.`,
        type: "Ordinary" as const,
        deadline: new Date("2026-07-01T10:00:00.000Z"),
        createdBy,
      })),
    )
    .returning({ id: resolutions.id });
  return rows.map((row) => row.id);
}

describe("input the search refuses", () => {
  it("answers 400 with the one error body for an empty or overlong query, bad dates, a bad meeting id or cursor", async () => {
    const { founder } = await ctx.board();
    const refusals: [Record<string, string | number>, string][] = [
      [{ q: "" }, emptySearchMessage],
      [{ q: "   " }, emptySearchMessage],
      [{ q: "x".repeat(maxSearchQueryLength + 1) }, searchTooLongMessage],
      [{ q: "a\u0007b" }, expect.any(String) as unknown as string],
      [{ q: "\uE000\uE001" }, emptySearchMessage],
      [{ q: "budget", from: "2026-06-02", to: "2026-06-01" }, fromAfterToMessage],
      [{ q: "budget", from: "2026-02-30" }, "From must be a date"],
      [{ q: "budget", meetingId: "99999999999" }, "Meeting must be a meeting's id"],
      [{ q: "budget", kind: "everything" }, "Unknown kind of result"],
      [{ q: "budget", cursor: "not-a-cursor" }, badSearchCursorMessage],
      [{ q: "budget", cursor: "a".repeat(60) }, badSearchCursorMessage],
      [{ q: "budget", cursor: "x!y" }, badSearchCursorMessage],
    ];
    for (const [query, message] of refusals) {
      const response = await searchAs(founder, query);
      expect({ query, status: response.status }).toEqual({ query, status: 400 });
      expect(response.body).toEqual(expect.objectContaining({ message }));
    }
    // 500 characters are a search; one with nothing to look for (stop words, exclusions alone, marks) finds nothing.
    for (const q of ["word ".repeat(100).trim(), "-budget", "!!! ???", "the of", '""']) {
      expect({ q, answer: await found(founder, { q }) }).toEqual({
        q,
        answer: { results: [], nextCursor: null, morePagesMatched: false, unsearched: [] },
      });
    }
  });

  it("refuses a cursor given for another search, or edited", async () => {
    const { founder, company } = await ctx.board();
    await addResolutions(company.id, founder.id, searchPageSize + 1);
    const first = await found(founder, { q: "lighthouse" });
    const cursor = first.nextCursor!;
    expect(cursor).toEqual(expect.any(String));
    const otherSearches: Record<string, string>[] = [
      { q: "lighthouses", cursor },
      { q: "lighthouse", kind: "resolution", cursor },
      { q: "lighthouse", cursor: `${cursor.slice(0, -1)}${cursor.endsWith("A") ? "B" : "A"}` },
      { q: "lighthouse", cursor: `A${cursor}` },
    ];
    for (const query of otherSearches) {
      const response = await searchAs(founder, query);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: badSearchCursorMessage });
    }
    const member = (await ctx.board()).founder;
    expect((await searchAs(member, { q: "lighthouse", cursor })).status).toBe(400);
  });
});

describe("pages of results", () => {
  it("are best first, each result once, until a page with no next cursor; papers not searched come with the first", async () => {
    const { founder, company } = await ctx.board();
    const ids = await addResolutions(company.id, founder.id, 2 * searchPageSize + 5);
    const scanned = await upload(founder, "Scan.pdf", await linesPdf([null]));
    const pages = [await found(founder, { q: "lighthouse" })];
    while (pages.at(-1)!.nextCursor) pages.push(await found(founder, { q: "lighthouse", cursor: pages.at(-1)!.nextCursor! }));
    expect(pages.map((page) => page.results.length)).toEqual([searchPageSize, searchPageSize, 5]);
    expect(pages.map((page) => page.unsearched.map((paper) => paper.documentId))).toEqual([[scanned.id], [], []]);
    const listed = pages.flatMap((page) => page.results.map((result) => result.id));
    expect(new Set(listed).size).toBe(ids.length);
    expect([...listed].sort((a, b) => a - b)).toEqual(ids);
    // In the order of their rank as the database has it, best first; ties by id.
    const ranked = (await ctx.db.execute(
      sql`select id, ts_rank(search_vector, websearch_to_tsquery('english', 'lighthouse'), 1)::text as rank
        from resolutions where company_id = ${company.id}`,
    )) as unknown as { rows: { id: number; rank: string }[] };
    const expected = ranked.rows
      .map((row) => ({ id: Number(row.id), rank: Number(row.rank) }))
      .sort((a, b) => b.rank - a.rank || a.id - b.id)
      .map((row) => row.id);
    expect(listed).toEqual(expected);
    expect(new Set(ranked.rows.map((row) => row.rank)).size).toBeGreaterThan(1);
  });

  it("past the end, answer no results and no cursor (what the cursor stood after is gone)", async () => {
    const { founder, company } = await ctx.board();
    const ids = await addResolutions(company.id, founder.id, searchPageSize + 1);
    const first = await found(founder, { q: "lighthouse" });
    const listed = new Set(first.results.map((result) => result.id));
    await ctx.db.delete(resolutions).where(
      eq(
        resolutions.id,
        ids.find((id) => !listed.has(id))!,
      ),
    );
    expect(await found(founder, { q: "lighthouse", cursor: first.nextCursor! })).toEqual({
      results: [],
      nextCursor: null,
      morePagesMatched: false,
      unsearched: [],
    });
  });
});

describe("snippets", () => {
  it("are escaped text in which only <mark> is markup, whatever the text holds", async () => {
    const { founder, company } = await ctx.board();
    await ctx.db.insert(resolutions).values({
      companyId: company.id,
      title: "Escapes",
      description: `If a < b & c > d, say "yes" and 'no' near the \uE000lighthouse\uE001 <img src=x onerror=alert(1)>.`,
      type: "Ordinary",
      deadline: new Date("2026-07-01T10:00:00.000Z"),
      createdBy: founder.id,
    });
    const [result] = (await found(founder, { q: "lighthouse \uE001" })).results;
    expect(result!.snippet).toContain("a &lt; b &amp; c &gt; d, say &quot;yes&quot; and &#39;no&#39; near the <mark>lighthouse</mark>");
    expect(result!.snippet.replaceAll("<mark>", "").replaceAll("</mark>", "")).not.toMatch(/[<>\uE000\uE001]/);
  });
});

describe("the cost of a search", () => {
  it("is the same number of queries for one result as for thirty of every kind", async () => {
    const one = await ctx.board();
    await addResolutions(one.company.id, one.founder.id, 1, "quarry");
    const many = await ctx.board();
    const meetingId = await scheduleMeeting(ctx.app, many.founder, new Date("2026-06-10T10:00:00.000Z"), { title: "Quarry visit" });
    await addResolutions(many.company.id, many.founder.id, 10, "quarry");
    await ctx.db.insert(meetingMinutes).values({ meetingId, status: "draft", text: "The quarry was visited." });
    const items = Array.from({ length: 8 }, (_, index) => index);
    await ctx.db
      .insert(agendaItems)
      .values(items.map((position) => ({ meetingId, position, title: `Quarry ${position}`, durationMinutes: 10 })));
    await ctx.db.insert(actionItems).values(
      items.map((index) => ({
        companyId: many.company.id,
        meetingId,
        title: `Fence the quarry ${index}`,
        ownerId: many.founder.id,
        dueDate: "2026-07-01",
      })),
    );
    for (const index of [1, 2]) await upload(many.founder, `Quarry ${index}.pdf`, await linesPdf([["Quarry"], ["quarry"]]));
    await upload(many.founder, "Scan.pdf", await linesPdf([null]));

    const count = async (user: { bearer: string }, expected: number) =>
      ctx.countQueries(async () => {
        const page = await found(user, { q: "quarry", scope: "all" });
        expect(page.results).toHaveLength(expected);
      });
    await count(one.founder, 1); // the session is read once; the counted calls find it in the instance's cache
    await count(many.founder, searchPageSize);
    expect(await count(many.founder, searchPageSize)).toBe(await count(one.founder, 1));
  });

  it("is limited per user and minute (429 with Retry-After)", async () => {
    const limited = createApp({ ...ctx.deps, limits: resolveLimits({ searchesPerUser: 2 }) });
    const { founder } = await ctx.board();
    const other = await ctx.signUp();
    const ask = (user: { bearer: string }) => request(limited).get("/api/search").query({ q: "budget" }).set("Authorization", user.bearer);
    for (let count = 0; count < 2; count += 1) expect((await ask(founder)).status).toBe(200);
    const refused = await ask(founder);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused.body).toEqual({ message: limitTable.searchesPerUser.message });
    // Input refused before the search costs none of it; another user has their own.
    expect((await request(limited).get("/api/search").query({ q: "" }).set("Authorization", founder.bearer)).status).toBe(400);
    expect((await ask(other)).status).toBe(200);
    ctx.clock.advance(60_000);
    expect((await ask(founder)).status).toBe(200);
  });

  it.runIf(process.env.QUORUM_TEST_DB === "postgres")("ends a search past its time with 503, never a 500", async () => {
    const { founder, company } = await ctx.board();
    await addResolutions(company.id, founder.id, 1);
    const second = await ctx.openSecondInstance();
    searchLimits.timeoutMs = 300;
    try {
      // Another connection holds the table the search reads: the search waits, and its time runs out.
      await second.db.transaction(async (tx) => {
        await tx.execute(sql`lock table resolutions in access exclusive mode`);
        const response = await searchAs(founder, { q: "lighthouse" });
        expect(response.status).toBe(503);
        expect(response.body).toEqual({ message: searchTooLongTakenMessage });
      });
    } finally {
      searchLimits.timeoutMs = 3_000;
      await second.close();
    }
    expect((await found(founder, { q: "lighthouse" })).results).toHaveLength(1);
  });
});
