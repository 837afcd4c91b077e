import request from "supertest";
import type { AuditEventView, AuditPage } from "../../../../shared/audit";
import { genesisHash } from "../../../../shared/audit-chain";
import { createCompany, scheduleMeeting } from "../../testing/factories";
import { useTestContext, type SignedUp } from "../../testing/test-context";
import { badCursorMessage } from "./audit.service";
import { auditFixtures } from "../../testing/audit-fixtures";

const ctx = useTestContext();
const testStart = "2026-06-01T09:00:00.000Z";
afterEach(() => ctx.clock.set(testStart));
const { companyWithFounder, record, headRow } = auditFixtures(ctx);

const api = () => request(ctx.app);
const list = (user: SignedUp, companyId: number, query: Record<string, string | number> = {}) =>
  api().get(`/api/companies/${companyId}/audit`).query(query).set("Authorization", user.bearer);

/** Every event of a page walk, following nextCursor until the end. */
async function walk(user: SignedUp, companyId: number, query: Record<string, string | number>) {
  const seen: AuditEventView[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const response = await list(user, companyId, cursor ? { ...query, cursor } : query);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const page = response.body as AuditPage;
    seen.push(...page.events);
    cursor = page.nextCursor;
    pages += 1;
  } while (cursor && pages < 100);
  return { seen, pages };
}

describe("who reads the audit trail", () => {
  it("founders and admins read, export and verify it; members, observers and other companies' founders get 403", async () => {
    const { founder, company, member } = await companyWithFounder("Roles Ltd");
    const admin = await member("admin");
    const plain = await member("member");
    const observer = await member("observer");
    const outsider = (await ctx.board("Elsewhere Ltd")).founder;
    await record(company.id);

    for (const path of ["audit", "audit/export", "audit/verify"]) {
      for (const allowed of [founder, admin]) {
        const response = await api().get(`/api/companies/${company.id}/${path}`).set("Authorization", allowed.bearer);
        expect(response.status, `${path}: ${response.text}`).toBe(200);
      }
      for (const refused of [plain, observer]) {
        const response = await api().get(`/api/companies/${company.id}/${path}`).set("Authorization", refused.bearer);
        expect(response.status).toBe(403);
        expect(response.body).toEqual({ message: "Only founders and admins can read the audit log" });
      }
      const foreign = await api().get(`/api/companies/${company.id}/${path}`).set("Authorization", outsider.bearer);
      expect(foreign.status).toBe(403);
      expect(foreign.text).not.toContain("Roles Ltd");
      expect((await api().get(`/api/companies/${company.id}/${path}`)).status).toBe(401);
    }
  });
});

describe("GET /api/companies/:companyId/audit", () => {
  it("records scheduling, changing and re-planning a meeting, newest first, with the actor's name and the chain's head", async () => {
    const { founder, company } = await companyWithFounder("Meetings Ltd");
    const start = new Date("2026-06-10T10:00:00.000Z");
    const id = await scheduleMeeting(ctx.app, founder, start, { title: "Budget review" });
    const confirmed = await api().patch(`/api/meetings/${id}`).set("Authorization", founder.bearer).send({ status: "confirmed" });
    expect(confirmed.status, confirmed.text).toBe(200);
    const moved = await api()
      .patch(`/api/meetings/${id}`)
      .set("Authorization", founder.bearer)
      .send({ date: "2026-06-12T10:00:00.000Z", endDate: "2026-06-12T12:00:00.000Z" });
    expect(moved.status, moved.text).toBe(200);
    const agenda = await api()
      .put(`/api/meetings/${id}/agenda`)
      .set("Authorization", founder.bearer)
      .send({ items: [{ title: "Accounts", durationMinutes: 20 }] });
    expect(agenda.status, agenda.text).toBe(200);
    const cancelled = await api().patch(`/api/meetings/${id}`).set("Authorization", founder.bearer).send({ status: "cancelled" });
    expect(cancelled.status, cancelled.text).toBe(200);

    const response = await list(founder, company.id);
    expect(response.status).toBe(200);
    const page = response.body as AuditPage;
    const meetingEvents = page.events.filter((row) => row.targetType === "meeting");
    expect(meetingEvents.map((row) => [row.action, row.details])).toEqual([
      ["meeting.updated", { change: "cancelled", status: { from: "confirmed", to: "cancelled" } }],
      ["meeting.agenda_updated", { items: ["Accounts"] }],
      ["meeting.updated", { change: "rescheduled", startsAt: { from: "2026-06-10T10:00:00.000Z", to: "2026-06-12T10:00:00.000Z" } }],
      ["meeting.updated", { change: "confirmed", status: { from: "pending", to: "confirmed" } }],
      [
        "meeting.scheduled",
        { title: "Budget review", startsAt: "2026-06-10T10:00:00.000Z", location: "Virtual (Zoom)", status: "pending" },
      ],
    ]);
    expect(meetingEvents.every((row) => row.actorId === founder.id && row.actorName === "Fay Founder" && row.targetId === String(id))).toBe(
      true,
    );
    expect(page.events.map((row) => row.seq)).toEqual([...page.events.map((row) => row.seq)].sort((a, b) => b - a));
    expect(page.headHash).toBe((await headRow(company.id))!.hash);
    expect(page.headHash).toBe(page.events[0]!.hash);
    expect(page.nextCursor).toBeNull();
  });

  it("answers the genesis hash and no events for a chain with none", async () => {
    const founder = await ctx.signUp();
    const company = await createCompany(ctx.db, { name: "Empty Ltd", founderId: founder.id });
    const response = await list(founder, company.id);
    expect(response.body).toEqual({ events: [], nextCursor: null, headHash: genesisHash });
  });

  it("filters by action, actor and time", async () => {
    const { founder, company, member } = await companyWithFounder("Filters Ltd");
    const admin = await member("admin", { firstName: "Ada", lastName: "Admin" });
    const base = await headRow(company.id);
    ctx.clock.set("2026-03-01T12:00:00.000Z");
    await record(company.id, { actorId: founder.id, action: "member.role" });
    ctx.clock.set("2026-03-02T12:00:00.000Z");
    await record(company.id, { actorId: admin.id, action: "member.role" });
    ctx.clock.set("2026-03-03T12:00:00.000Z");
    await record(company.id, { actorId: admin.id, action: "company.update" });
    ctx.clock.set("2026-03-04T12:00:00.000Z");
    await record(company.id, { actorId: null, action: "resolution.decided" });

    const actions = async (query: Record<string, string>) => ((await list(founder, company.id, query)).body as AuditPage).events;
    expect((await actions({ action: "member.role" })).map((row) => row.actorId)).toEqual([admin.id, founder.id]);
    const byAdmin = await actions({ actorId: String(admin.id) });
    expect(byAdmin.map((row) => row.action)).toEqual(["company.update", "member.role"]);
    expect(byAdmin.every((row) => row.actorName === "Ada Admin")).toBe(true);
    expect((await actions({ action: "member.role", actorId: String(admin.id) })).map((row) => row.at)).toEqual([
      "2026-03-02T12:00:00.000Z",
    ]);
    const window = await actions({ from: "2026-03-02T12:00:00.000Z", to: "2026-03-03T12:00:00Z" });
    expect(window.map((row) => row.at)).toEqual(["2026-03-03T12:00:00.000Z", "2026-03-02T12:00:00.000Z"]);
    expect((await actions({ from: "2026-03-04T00:00:00+01:00" })).map((row) => row.action)).toEqual(["resolution.decided"]);
    const [app] = await actions({ action: "resolution.decided" });
    expect(app).toMatchObject({ actorId: null, actorName: null, seq: (base?.seq ?? 0) + 4 });
    expect(await actions({ action: "document.deleted" })).toEqual([]);
  });

  it("pages through the chain by cursor without gaps or repeats, with and without a filter", async () => {
    const { founder, company } = await companyWithFounder("Pages Ltd");
    for (let index = 0; index < 23; index += 1) {
      await record(company.id, { action: index % 3 === 0 ? "document.uploaded" : "company.update", details: { index } });
    }
    const head = (await headRow(company.id))!;
    const all = await walk(founder, company.id, { limit: 5 });
    expect(all.seen.map((row) => row.seq)).toEqual(Array.from({ length: head.seq }, (_, index) => head.seq - index));
    expect(all.pages).toBe(Math.ceil(head.seq / 5));
    const uploads = await walk(founder, company.id, { limit: 3, action: "document.uploaded" });
    expect(uploads.seen.map((row) => row.details)).toEqual([21, 18, 15, 12, 9, 6, 3, 0].map((index) => ({ index })));
    // An exact last page says there is no next one.
    const exact = await walk(founder, company.id, { limit: 4, action: "document.uploaded" });
    expect(exact.pages).toBe(2);
  });

  it("costs the same number of queries for a page of 2 as for a page of 200", async () => {
    const { founder, company } = await companyWithFounder("Queries Ltd");
    for (let index = 0; index < 12; index += 1) await record(company.id, { actorId: founder.id });
    await ctx.notificationsHeard();
    await list(founder, company.id, { limit: 1 }); // reads the session once; the counted calls find it cached
    const small = await ctx.countQueries(() => list(founder, company.id, { limit: 2 }));
    const large = await ctx.countQueries(() => list(founder, company.id, { limit: 200 }));
    expect(large).toBe(small);
  });

  it("refuses a cursor it did not give, an unknown action, a bad date and a limit out of range with 400 and the error body", async () => {
    const { founder, company } = await companyWithFounder("Refusals Ltd");
    for (let index = 0; index < 4; index += 1) await record(company.id);
    const other = await companyWithFounder("Other Refusals Ltd");
    for (let index = 0; index < 4; index += 1) await record(other.company.id);
    const cursor = ((await list(founder, company.id, { limit: 2 })).body as AuditPage).nextCursor!;
    const foreignCursor = ((await list(other.founder, other.company.id, { limit: 2 })).body as AuditPage).nextCursor!;
    const [seq, signature] = [cursor.slice(0, cursor.indexOf("-")), cursor.slice(cursor.indexOf("-") + 1)];
    const flipped = `${signature[0] === "A" ? "B" : "A"}${signature.slice(1)}`;

    const refused: [Record<string, string | number>, string][] = [
      [{ cursor: `${Number(seq) + 1}-${signature}` }, badCursorMessage],
      [{ cursor: `${seq}-${flipped}` }, badCursorMessage],
      [{ cursor: foreignCursor }, badCursorMessage],
      [{ cursor: "12" }, badCursorMessage],
      [{ cursor: "not a cursor" }, badCursorMessage],
      [{ cursor: "x".repeat(500) }, badCursorMessage],
      [{ action: "meeting.deleted" }, "Unknown action"],
      [{ from: "yesterday" }, "From must be a date and time"],
      [{ to: "2026-13-40T00:00:00Z" }, "To must be a date and time"],
      [{ actorId: "abc" }, "Actor must be a user's id"],
      [{ limit: 0 }, "Limit must be from 1 to 200"],
      [{ limit: 201 }, "Limit must be from 1 to 200"],
    ];
    for (const [query, message] of refused) {
      const response = await list(founder, company.id, query);
      expect(response.status, JSON.stringify(query)).toBe(400);
      expect(response.body.message, JSON.stringify(query)).toBe(message);
    }
    expect((await list(founder, company.id, { cursor })).status).toBe(200);
  });
});
