import net from "node:net";
import { desc, eq, sql } from "drizzle-orm";
import request from "supertest";
import { createApp } from "../../app";
import { memberships, notifications, sessions } from "../../db/schema";
import { sessionIdleLimitMs } from "../../http/session";
import { listenOn, openEventStream, type OpenedStream } from "../../testing/event-stream-client";
import { scheduleMeeting, uploadPdf } from "../../testing/factories";
import { samplePdf } from "../../testing/sample-files";
import { enableTotp, withSecondFactorSession } from "../../testing/second-factor-fixtures";
import { useTestContext } from "../../testing/test-context";
import { day, resolutionFixtures } from "../../testing/resolution-fixtures";

const ctx = useTestContext();
const fixtures = resolutionFixtures(ctx);
let server: Awaited<ReturnType<typeof listenOn>>;
const opened: OpenedStream[] = [];

beforeAll(async () => {
  server = await listenOn(ctx.app);
});
afterEach(() => {
  for (const stream of opened.splice(0)) stream.close();
});
afterAll(() => server.close());

async function stream(bearer?: string, headers?: Record<string, string>, base = server.url): Promise<OpenedStream> {
  const result = await openEventStream(base, bearer, headers);
  if (result.status === 200) opened.push(result);
  return result;
}

const votesOf = (resolutionId: number) => (event: { event: string; data: unknown }) =>
  event.event === "votes" && (event.data as { resolutionId: number }).resolutionId === resolutionId;

describe("GET /api/events", () => {
  it("sends a vote's new counts to the company's streams, and nothing of it to another company's", async () => {
    const { founder, voters } = await fixtures.boardWith(2);
    const outsider = await ctx.board("Elsewhere Ltd");
    const id = await fixtures.created(founder);
    const mine = await stream(voters[1]!.bearer);
    const foreign = await stream(outsider.founder.bearer);
    expect(mine.status).toBe(200);

    expect((await fixtures.vote(voters[0]!, id, "yes")).status).toBe(200);
    const event = await mine.next(votesOf(id));
    expect(event.data).toEqual({ resolutionId: id, yes: 1, no: 0, abstain: 0, total: 1 });
    expect(event.id).toMatch(/^\d+$/);

    // The foreign stream hears its own company's next change, and only that.
    await uploadPdf(ctx.app, outsider.founder, "Theirs.pdf");
    await foreign.next((received) => received.event === "document");
    expect(foreign.events.map((received) => received.event)).toEqual(["document"]);
  });

  it("coalesces a burst of votes into few reads, the last with the final counts", async () => {
    const { founder, voters } = await fixtures.boardWith(8);
    const id = await fixtures.created(founder);
    const watcher = await stream(founder.bearer);
    await Promise.all(voters.slice(1).map((voter) => fixtures.vote(voter, id, "no")));
    const last = await watcher.next((event) => votesOf(id)(event) && (event.data as { total: number }).total === 8);
    expect(last.data).toEqual({ resolutionId: id, yes: 0, no: 8, abstain: 0, total: 8 });
    expect(watcher.events.filter(votesOf(id)).length).toBeLessThan(8);
  });

  it("announces a decided resolution, a notification to its owner only, documents added, replaced and removed, and meetings", async () => {
    const { founder, voters } = await fixtures.boardWith(1);
    const id = await fixtures.created(founder);
    const founderStream = await stream(founder.bearer);
    const memberStream = await stream(voters[1]!.bearer);

    await fixtures.allVote(voters, id, ["yes", "yes"]);
    await founderStream.next(
      (event) => event.event === "resolution" && (event.data as { resolutionId: number; status: string }).status === "approved",
    );

    const [notification] = await ctx.db
      .insert(notifications)
      .values({ userId: founder.id, kind: "test", title: "For the founder" })
      .returning({ id: notifications.id });
    const received = await founderStream.next(
      (event) => event.event === "notification" && (event.data as { id: number }).id === notification!.id,
    );
    expect(received.data).toEqual({ id: notification!.id });

    const documentId = await uploadPdf(ctx.app, founder);
    await memberStream.next((event) => event.event === "document");
    const replacing = request(ctx.app).post(`/api/documents/${documentId}/versions`).set("Authorization", founder.bearer);
    expect((await replacing.field("note", "Restated").attach("file", samplePdf(), "Budget.pdf")).status).toBe(201);
    const replaced = await memberStream.next(
      (event) => event.event === "document" && (event.data as { change: string }).change === "replaced",
    );
    expect(replaced.data).toEqual({ documentId, change: "replaced" });
    expect((await request(ctx.app).delete(`/api/documents/${documentId}`).set("Authorization", founder.bearer)).status).toBe(204);
    const removed = await memberStream.next(
      (event) => event.event === "document" && (event.data as { change: string }).change === "removed",
    );
    expect(removed.data).toEqual({ documentId, change: "removed" });

    const meetingId = await scheduleMeeting(ctx.app, founder, new Date(ctx.clock.now().getTime() + 7 * day));
    const meetingEvent = await memberStream.next((event) => event.event === "meeting");
    expect(meetingEvent.data).toEqual({ meetingId });

    // The notification went to its owner only; the meeting's own document row is not announced as a document.
    expect(
      memberStream.events.some((event) => event.event === "notification" && (event.data as { id: number }).id === notification!.id),
    ).toBe(false);
    expect(memberStream.events.filter((event) => event.event === "document")).toHaveLength(3);
  });

  it("ends a stream whose session signs out, and stops a company's events once the membership is removed", async () => {
    const { founder, voters } = await fixtures.boardWith(2);
    const id = await fixtures.created(founder);
    const [, voter, leaving] = voters as [unknown, (typeof voters)[number], (typeof voters)[number]];
    const revoked = await stream(founder.bearer);
    const member = await stream(leaving.bearer);

    expect((await request(ctx.app).post("/api/auth/logout").set("Authorization", founder.bearer)).status).toBe(204);
    await revoked.ended;

    const watcher = await stream(voter.bearer);
    await ctx.db.delete(memberships).where(eq(memberships.userId, leaving.id));
    expect((await fixtures.vote(voter, id, "yes")).status).toBe(200);
    // The vote reached a member's stream; the leaver's stream, still open, was sent nothing of it.
    // (The resolution's creation may still be announced to both with no votes: it happened before either change.)
    const counted = (event: { event: string; data: unknown }) => votesOf(id)(event) && (event.data as { total: number }).total > 0;
    await watcher.next(counted);
    expect(member.events.filter(counted)).toEqual([]);
    expect(revoked.events.filter(counted)).toEqual([]);
  });

  it("sends a company that requires a second factor nothing to a session that skipped it, even when the account has one", async () => {
    const { founder, company, voters } = await fixtures.boardWith(1);
    const admin = await withSecondFactorSession(ctx, founder);
    const required = await request(ctx.app)
      .put(`/api/companies/${company.id}`)
      .set("Authorization", admin.bearer)
      .send({ name: "Guarded Board", industry: "Technology", location: "London", stage: "seed", requireSecondFactor: true });
    expect(required.status).toBe(200);
    const director = voters[1]!;
    // Signed in with the password alone, before the account had a factor.
    const login = await request(ctx.app).post("/api/auth/login").send({ username: director.username, password: director.password });
    ctx.noteSecret(login.body.token);
    const skipped = await stream(`Bearer ${login.body.token}`);
    await enableTotp(ctx, director);
    const passed = await stream(director.bearer);

    await uploadPdf(ctx.app, admin, "Guarded.pdf");
    await passed.next((event) => event.event === "document");
    expect(skipped.events.filter((event) => event.event === "document")).toEqual([]);
  });

  it("resumes from Last-Event-ID with what the client missed", async () => {
    const { founder, voters } = await fixtures.boardWith(2);
    const id = await fixtures.created(founder);
    const first = await stream(founder.bearer);
    expect((await fixtures.vote(voters[0]!, id, "yes")).status).toBe(200);
    const seen = await first.next(votesOf(id));
    first.close();

    expect((await fixtures.vote(voters[1]!, id, "no")).status).toBe(200);
    // Another open stream proves the missed event was published before the client came back.
    const other = await stream(voters[2]!.bearer);
    expect((await fixtures.vote(voters[2]!, id, "abstain")).status).toBe(200);
    await other.next((event) => votesOf(id)(event) && (event.data as { total: number }).total === 3);

    const resumed = await stream(founder.bearer, { "Last-Event-ID": seen.id });
    const caughtUp = await resumed.next((event) => votesOf(id)(event) && (event.data as { total: number }).total === 3);
    expect(BigInt(caughtUp.id)).toBeGreaterThan(BigInt(seen.id));
    expect(resumed.events.filter(votesOf(id)).map((event) => event.id)).not.toContain(seen.id);
  });

  it("refuses bad input: no session, a Last-Event-ID that is no id, an eleventh stream of one session", async () => {
    const { founder } = await ctx.board("Limits Ltd");
    expect((await stream()).status).toBe(401);
    for (const bad of ["abc", "-1", "1e5", "12345678901234567", "1 2"]) {
      const refused = await stream(founder.bearer, { "Last-Event-ID": bad });
      expect({ bad, status: refused.status }).toEqual({ bad, status: 400 });
      expect(refused.body).toMatchObject({ message: expect.stringContaining("Last-Event-ID") });
    }
    for (let index = 0; index < 10; index += 1) expect((await stream(founder.bearer)).status).toBe(200);
    // A thousand more from the same session are all refused, and none is left open.
    const extra = await Promise.all(Array.from({ length: 1000 }, () => stream(founder.bearer)));
    expect(new Set(extra.map((refused) => refused.status))).toEqual(new Set([429]));
    // Another session of the same user has its own ten.
    const login = await request(ctx.app).post("/api/auth/login").send({ username: founder.username, password: founder.password });
    ctx.noteSecret(login.body.token);
    expect((await stream(`Bearer ${login.body.token}`)).status).toBe(200);
  });

  it("sends a comment line at each heartbeat", async () => {
    const quick = await listenOn(createApp(ctx.deps, { eventStreams: { heartbeatMs: 20 } }));
    try {
      const { founder } = await ctx.board("Heartbeat Ltd");
      const watcher = await stream(founder.bearer, {}, quick.url);
      await vi.waitFor(() => expect(watcher.comments).toBeGreaterThanOrEqual(3));
    } finally {
      await quick.close();
    }
  });

  it("ends a stream when its session expires or idles out, and not before", async () => {
    const quick = await listenOn(createApp(ctx.deps, { eventStreams: { heartbeatMs: 20 } }));
    const start = ctx.clock.now();
    try {
      const { founder } = await ctx.board("Lapsing Ltd");
      const [session] = await ctx.db.select().from(sessions).where(eq(sessions.userId, founder.id));
      const watcher = await stream(founder.bearer, {}, quick.url);
      let ended = false;
      void watcher.ended.then(() => (ended = true));
      // A minute short of the session's idle limit: the stream is checked again at each heartbeat and stands.
      ctx.clock.set(new Date(session!.lastUsedAt.getTime() + sessionIdleLimitMs - 60_000));
      const seen = watcher.comments;
      await vi.waitFor(() => expect(watcher.comments).toBeGreaterThanOrEqual(seen + 3));
      expect(ended).toBe(false);
      // Past it, the next checks end the stream.
      ctx.clock.advance(60_001);
      await watcher.ended;

      // The absolute expiry ends a stream whose session is in use.
      const login = await request(ctx.app).post("/api/auth/login").send({ username: founder.username, password: founder.password });
      ctx.noteSecret(login.body.token);
      const busy = await stream(`Bearer ${login.body.token}`, {}, quick.url);
      expect(busy.status).toBe(200);
      const [fresh] = await ctx.db.select().from(sessions).where(eq(sessions.userId, founder.id)).orderBy(desc(sessions.id)).limit(1);
      await ctx.db.update(sessions).set({ lastUsedAt: fresh!.expiresAt }).where(eq(sessions.id, fresh!.id));
      ctx.clock.set(fresh!.expiresAt);
      await busy.ended;
    } finally {
      ctx.clock.set(start);
      await quick.close();
    }
  });

  it("drops the stream of a client that stops reading, instead of buffering for it", async () => {
    const strict = await listenOn(createApp(ctx.deps, { eventStreams: { maxBufferedBytes: 64 * 1024 } }));
    const { founder, company } = await ctx.board("Slow Reader Ltd");
    const socket = net.connect(Number(new URL(strict.url).port), "127.0.0.1");
    try {
      let received = 0;
      socket.on("data", (chunk) => (received += chunk.length));
      const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
      await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
      socket.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${founder.bearer}\r\n\r\n`);
      await vi.waitFor(() => expect(received).toBeGreaterThan(0));
      socket.pause();
      // About 14 MB of events for this company, beyond what loopback's socket buffers hold (4 MB to send, 6 to receive).
      const batch = 10_000;
      const events = 14 * batch;
      for (let from = 1; from <= events; from += batch) {
        await ctx.db.execute(
          sql`select pg_notify('quorum_live', json_build_object('k', 'd', 'd', g, 'c', ${company.id}::int, 'a', 'added')::text) from generate_series(${from}::int, ${from + batch - 1}::int) g`,
        );
      }
      // The server drops the connection while the client still reads nothing.
      await vi.waitFor(async () => expect(await strict.connections()).toBe(0), { timeout: 30_000, interval: 50 });
      socket.resume();
      await closed;
      expect(received).toBeLessThan(events * 60);
    } finally {
      socket.destroy();
      await strict.close();
    }
  }, 60_000);
});
