import { eq } from "drizzle-orm";
import { rateEvents } from "../db/schema";
import { useTestContext } from "../testing/test-context";
import { HttpError } from "./errors";
import { countAgainstLimit, countAgainstLimits, withinLimit, type RateLimit } from "./rate-limit";

const ctx = useTestContext();

const minuteMs = 60_000;
const rule = (bucket: string): RateLimit => ({ bucket, limit: 3, windowMs: 10 * minuteMs, message: "Slow down" });

/** Counts one event; answers null when it was allowed, the 429 when it was refused. */
async function count(limit: RateLimit, key = "someone"): Promise<HttpError | null> {
  try {
    await countAgainstLimit(ctx.db, ctx.clock, limit, key);
    return null;
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
}

const rowsOf = async (bucket: string) => ctx.db.select().from(rateEvents).where(eq(rateEvents.bucket, bucket));

describe("countAgainstLimit", () => {
  it("allows `limit` events in the window and refuses the next with 429 and a Retry-After after which one is allowed again", async () => {
    const limit = rule("test-limit");
    expect(await count(limit)).toBeNull();
    ctx.clock.advance(2 * minuteMs);
    expect(await count(limit)).toBeNull();
    expect(await count(limit)).toBeNull();
    // Another key has a count of its own.
    expect(await count(limit, "someone else")).toBeNull();

    ctx.clock.advance(minuteMs);
    const refused = await count(limit);
    expect(refused?.status).toBe(429);
    expect(refused?.message).toBe("Slow down");
    // The first event leaves the window 10 minutes after it came: 7 minutes from now.
    expect(refused?.headers).toEqual({ "Retry-After": String(7 * 60) });

    // Refused events are not counted: retrying while refused does not put the answer off.
    for (let retry = 0; retry < 5; retry++) {
      ctx.clock.advance(minuteMs);
      expect((await count(limit))?.headers).toEqual({ "Retry-After": String((6 - retry) * 60) });
    }
    ctx.clock.advance(2 * minuteMs - 1000);
    expect((await count(limit))?.headers).toEqual({ "Retry-After": "1" });

    // At Retry-After, the next event is allowed; then the window is full again.
    ctx.clock.advance(1000);
    expect(await count(limit)).toBeNull();
    expect((await count(limit))?.status).toBe(429);
  });

  it("deletes the bucket's events older than the window at every call, a refused one too", async () => {
    const limit = rule("test-sweep");
    const other = rule("test-other-bucket");
    for (let event = 0; event < 3; event++) expect(await count(limit)).toBeNull();
    expect(await count(other)).toBeNull();
    ctx.clock.advance(5 * minuteMs);
    expect((await count(limit))?.status).toBe(429);
    expect(await rowsOf("test-sweep")).toHaveLength(3);

    ctx.clock.advance(10 * minuteMs);
    expect(await count(limit, "a newcomer")).toBeNull();
    expect((await rowsOf("test-sweep")).map((row) => row.key)).toEqual(["a newcomer"]);
    // Another bucket's events are its own to sweep.
    expect(await rowsOf("test-other-bucket")).toHaveLength(1);

    for (let event = 0; event < 3; event++) expect(await count(limit)).toBeNull();
    ctx.clock.advance(10 * minuteMs + 1);
    // Only a refused call comes: the old events still go.
    await ctx.db.insert(rateEvents).values([1, 2, 3].map(() => ({ bucket: "test-sweep", key: "flooder", at: ctx.clock.now() })));
    expect((await count(limit, "flooder"))?.status).toBe(429);
    expect((await rowsOf("test-sweep")).map((row) => row.key)).toEqual(["flooder", "flooder", "flooder"]);
  });

  it("admits a concurrent burst up to the limit: of 10 at once, 3 pass and 7 are refused (429)", async () => {
    const limit = rule("test-burst");
    // Several bursts, each on a key of its own: one race lost is enough to fail.
    for (const key of ["burst 1", "burst 2", "burst 3", "burst 4", "burst 5"]) {
      const outcomes = await Promise.all(Array.from({ length: 10 }, () => count(limit, key)));
      expect(
        outcomes.filter((outcome) => outcome === null),
        key,
      ).toHaveLength(3);
      expect(
        outcomes.filter((outcome) => outcome?.status === 429),
        key,
      ).toHaveLength(7);
    }
    expect(await rowsOf("test-burst")).toHaveLength(15);
  });
});

describe("countAgainstLimits", () => {
  it("counts one event against every limit or, when one refuses it, against none (that limit's 429)", async () => {
    const wide = rule("test-all-wide");
    const narrow = { ...rule("test-all-narrow"), limit: 1, message: "Narrow" };
    const both = () =>
      countAgainstLimits(ctx.db, ctx.clock, [
        { rule: wide, key: "k" },
        { rule: narrow, key: "k" },
      ]).then(
        () => null,
        (error: unknown) => error,
      );
    expect(await both()).toBeNull();
    expect(await both()).toMatchObject({ status: 429, message: "Narrow" });
    expect(await rowsOf("test-all-wide")).toHaveLength(1);
    expect(await rowsOf("test-all-narrow")).toHaveLength(1);
  });
});

describe("withinLimit", () => {
  it("answers whether the event was within the limit, counting it only then, and never refuses", async () => {
    const limit = rule("test-silent");
    for (let event = 0; event < 3; event++) expect(await withinLimit(ctx.db, ctx.clock, limit, "k")).toBe(true);
    expect(await withinLimit(ctx.db, ctx.clock, limit, "k")).toBe(false);
    expect(await rowsOf("test-silent")).toHaveLength(3);
    ctx.clock.advance(10 * minuteMs);
    expect(await withinLimit(ctx.db, ctx.clock, limit, "k")).toBe(true);
  });
});
