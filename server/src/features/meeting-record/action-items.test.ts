import { and, eq } from "drizzle-orm";
import type { ActionItem } from "../../../../shared/meeting-record";
import { deniedMessage } from "../../../../shared/permissions";
import { actionItems, auditEvents } from "../../db/schema";
import { dayMs, lifecycleFixtures } from "../../testing/lifecycle-fixtures";
import { useTestContext, type SignedUp } from "../../testing/test-context";
import { cancelledMeetingItemsMessage, dueBeforeMeetingMessage, ownerNotMemberMessage } from "./action-items.service";

const testStart = "2026-06-01T09:00:00.000Z";
const ctx = useTestContext();
afterEach(() => ctx.clock.set(testStart));

const { api, schedule, update } = lifecycleFixtures(ctx);
const inDays = (days: number) => new Date(new Date(testStart).getTime() + days * dayMs);

const create = (user: SignedUp, meetingId: number, body: Record<string, unknown>) =>
  api().post(`/api/meetings/${meetingId}/action-items`).set("Authorization", user.bearer).send(body);
const patch = (user: SignedUp, itemId: number, body: Record<string, unknown>) =>
  api().patch(`/api/action-items/${itemId}`).set("Authorization", user.bearer).send(body);
const companyList = (user: SignedUp, companyId: number, query = "") =>
  api().get(`/api/companies/${companyId}/action-items${query}`).set("Authorization", user.bearer);

/** A board with a meeting on 10 June (10:00 UTC) and people of every role. */
async function boardWithMeeting(name: string) {
  const { founder, company, member } = await ctx.board(name, { firstName: "Fay", lastName: "Founder" });
  const admin = await member("admin", { firstName: "Ada", lastName: "Admin" });
  const ann = await member("member", { firstName: "Ann", lastName: "Owner" });
  const observer = await member("observer", { firstName: "Oscar", lastName: "Observer" });
  const meetingId = await schedule(founder, new Date("2026-06-10T10:00:00.000Z"), { title: "June board" });
  return { founder, company, admin, ann, observer, member, meetingId };
}

async function addItem(user: SignedUp, meetingId: number, body: Record<string, unknown>): Promise<ActionItem> {
  const response = await create(user, meetingId, body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as ActionItem;
}

const storedItem = async (id: number) => (await ctx.db.select().from(actionItems).where(eq(actionItems.id, id)))[0]!;
const itemsOfMeeting = (meetingId: number) => ctx.db.select().from(actionItems).where(eq(actionItems.meetingId, meetingId));
const auditOf = (id: number) =>
  ctx.db
    .select({ action: auditEvents.action, actorId: auditEvents.actorId, details: auditEvents.details })
    .from(auditEvents)
    .where(and(eq(auditEvents.targetType, "action_item"), eq(auditEvents.targetId, String(id))));

describe("POST /api/meetings/:id/action-items", () => {
  it("a keeper gives any member, an observer too, an item: 201 with the owner's name and the meeting's title, audited", async () => {
    const { founder, observer, meetingId } = await boardWithMeeting("Create Co");
    const item = await addItem(founder, meetingId, { title: "  Send the accounts  ", ownerId: observer.id, dueDate: "2026-06-10" });
    expect(item).toEqual({
      id: item.id,
      meetingId,
      meetingTitle: "June board",
      title: "Send the accounts",
      ownerId: observer.id,
      ownerName: "Oscar Observer",
      dueDate: "2026-06-10",
      status: "open",
    });
    expect(await storedItem(item.id)).toMatchObject({ createdBy: founder.id, completedAt: null });
    expect(await auditOf(item.id)).toEqual([
      { action: "action_item.created", actorId: founder.id, details: { meetingId, ownerId: observer.id, dueDate: "2026-06-10" } },
    ]);
    const listed = await api().get(`/api/meetings/${meetingId}/action-items`).set("Authorization", observer.bearer);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([item]);
  });

  it("the meeting's creator keeps its record; a member who did not create it and an observer are refused (403), saving nothing", async () => {
    const { ann, observer, member, founder, meetingId } = await boardWithMeeting("Roles Co");
    const creator = await member("member");
    const own = await schedule(creator, inDays(12), { title: "Creator's meeting" });
    await addItem(creator, own, { title: "Book the room", ownerId: founder.id, dueDate: "2026-06-20" });

    for (const caller of [ann, observer]) {
      const response = await create(caller, meetingId, { title: "Not mine", ownerId: ann.id, dueDate: "2026-06-20" });
      expect(response.status).toBe(403);
      expect(response.body.message).toBe(deniedMessage("keepAnyMeetingRecord"));
    }
    expect(await itemsOfMeeting(meetingId)).toEqual([]);
  });

  it("refuses bad input with the field named, and saves nothing", async () => {
    const { founder, ann, meetingId } = await boardWithMeeting("Input Co");
    const stranger = (await ctx.board("Stranger Co")).founder;
    const valid = { title: "Check the lease", ownerId: ann.id, dueDate: "2026-06-10" };
    const cases: [Record<string, unknown>, string, string | undefined][] = [
      [{ ...valid, dueDate: "2026-06-09" }, "dueDate", dueBeforeMeetingMessage],
      [{ ...valid, ownerId: stranger.id }, "ownerId", ownerNotMemberMessage],
      [{ ...valid, title: "Two\nlines" }, "title", undefined],
      [{ ...valid, title: "x".repeat(201) }, "title", "Title must be at most 200 characters"],
      [{ ...valid, title: "Bell\u0007" }, "title", undefined],
      [{ ...valid, dueDate: "2026-13-01" }, "dueDate", "Due date must be a date (YYYY-MM-DD)"],
      [{ ...valid, dueDate: "2026-02-30" }, "dueDate", "Due date must be a date (YYYY-MM-DD)"],
      [{ ...valid, ownerId: "me" }, "ownerId", "Owner must be a member's id"],
    ];
    for (const [body, path, message] of cases) {
      const response = await create(founder, meetingId, body);
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
      expect(response.body.errors[0].path).toBe(path);
      if (message) expect(response.body.errors[0].message).toBe(message);
    }
    expect(await itemsOfMeeting(meetingId)).toEqual([]);
    // The due date is compared with the meeting's UTC calendar date, whatever its hour.
    const lateMeeting = await schedule(founder, new Date("2026-06-15T23:30:00.000Z"));
    expect((await create(founder, lateMeeting, { ...valid, dueDate: "2026-06-14" })).status).toBe(400);
    expect((await create(founder, lateMeeting, { ...valid, dueDate: "2026-06-15" })).status).toBe(201);
  });

  it("a cancelled meeting gives none (409); another company's meeting is not found (404)", async () => {
    const { founder, ann, meetingId } = await boardWithMeeting("Cancel Co");
    expect((await update(founder, meetingId, { status: "cancelled" })).status).toBe(200);
    const response = await create(founder, meetingId, { title: "Too late", ownerId: ann.id, dueDate: "2026-06-20" });
    expect(response.status).toBe(409);
    expect(response.body.message).toBe(cancelledMeetingItemsMessage);

    const other = await boardWithMeeting("Other Co");
    const foreign = await create(founder, other.meetingId, { title: "Intrusion", ownerId: ann.id, dueDate: "2026-06-20" });
    expect(foreign.status).toBe(404);
    expect(await itemsOfMeeting(other.meetingId)).toEqual([]);
    expect((await api().get(`/api/meetings/${other.meetingId}/action-items`).set("Authorization", founder.bearer)).status).toBe(404);
  });
});

describe("GET /api/companies/:companyId/action-items", () => {
  it("filters by owner (me or an id) and status, overdue and soonest due first", async () => {
    const { founder, company, ann, admin, meetingId } = await boardWithMeeting("Filter Co");
    const later = await addItem(founder, meetingId, { title: "Later", ownerId: ann.id, dueDate: "2026-07-01" });
    const sooner = await addItem(founder, meetingId, { title: "Sooner", ownerId: ann.id, dueDate: "2026-06-12" });
    const admins = await addItem(founder, meetingId, { title: "Admin's", ownerId: admin.id, dueDate: "2026-06-11" });
    const done = await addItem(founder, meetingId, { title: "Done", ownerId: ann.id, dueDate: "2026-06-10" });
    expect((await patch(ann, done.id, { status: "done" })).status).toBe(200);
    ctx.clock.set("2026-06-13T09:00:00.000Z"); // "Sooner" is overdue now: it still leads
    const titles = async (user: SignedUp, query: string) => {
      const response = await companyList(user, company.id, query);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return (response.body as ActionItem[]).map((item) => item.title);
    };

    expect(await titles(ann, "?owner=me&status=open")).toEqual([sooner.title, later.title]);
    expect(await titles(ann, "?owner=me")).toEqual([done.title, sooner.title, later.title]);
    expect(await titles(founder, `?owner=${admin.id}`)).toEqual([admins.title]);
    expect(await titles(founder, "?owner=me")).toEqual([]);
    expect(await titles(founder, "?status=done")).toEqual([done.title]);
    expect(await titles(founder, "")).toEqual([done.title, admins.title, sooner.title, later.title]);
    expect((await companyList(founder, company.id, "?status=closed")).status).toBe(400);
    expect((await companyList(founder, company.id, "?owner=you")).status).toBe(400);
  });

  it("refuses a member of another company (403), and costs the same number of queries for 2 items as for 40", async () => {
    const small = await boardWithMeeting("Two Co");
    const large = await boardWithMeeting("Forty Co");
    expect((await companyList(small.founder, large.company.id)).status).toBe(403);
    const rows = (board: typeof small, count: number) =>
      Array.from({ length: count }, (_, index) => ({
        companyId: board.company.id,
        meetingId: board.meetingId,
        title: `Item ${index}`,
        ownerId: index % 2 ? board.ann.id : board.admin.id,
        dueDate: `2026-07-${String((index % 28) + 1).padStart(2, "0")}`,
      }));
    await ctx.db.insert(actionItems).values(rows(small, 2));
    await ctx.db.insert(actionItems).values(rows(large, 40));
    const cost = (board: typeof small, path: string) =>
      ctx.countQueries(async () => {
        const response = await api().get(path).set("Authorization", board.founder.bearer);
        expect(response.status).toBe(200);
        expect(response.body).toHaveLength(board === small ? 2 : 40);
      });
    for (const path of ["/api/companies/:company/action-items", "/api/meetings/:meeting/action-items"]) {
      const at = (board: typeof small) => path.replace(":company", String(board.company.id)).replace(":meeting", String(board.meetingId));
      // Each founder's session is read once now; the counted reads find it in the instance's cache.
      for (const board of [small, large]) await cost(board, at(board));
      const few = await cost(small, at(small));
      expect(few).toBeGreaterThan(0); // the list's own query: the counter works
      expect({ path, queries: await cost(large, at(large)) }).toEqual({ path, queries: few });
    }
  });
});

describe("PATCH /api/action-items/:id", () => {
  it("its owner marks it done (completedAt set) and reopens it (cleared), each audited", async () => {
    const { founder, ann, meetingId } = await boardWithMeeting("Done Co");
    const item = await addItem(founder, meetingId, { title: "Sign the lease", ownerId: ann.id, dueDate: "2026-06-12" });
    ctx.clock.set("2026-06-11T08:00:00.000Z");
    const done = await patch(ann, item.id, { status: "done" });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ ...item, status: "done" });
    expect(await storedItem(item.id)).toMatchObject({ status: "done", completedAt: new Date("2026-06-11T08:00:00.000Z") });
    // The whole item sent back with only the status changed is the owner's to send.
    const reopened = await patch(ann, item.id, { title: item.title, ownerId: ann.id, dueDate: item.dueDate, status: "open" });
    expect(reopened.status).toBe(200);
    expect(await storedItem(item.id)).toMatchObject({ status: "open", completedAt: null });
    expect((await auditOf(item.id)).map((row) => [row.action, row.actorId, row.details])).toEqual([
      ["action_item.created", founder.id, expect.anything()],
      ["action_item.updated", ann.id, { status: "done" }],
      ["action_item.updated", ann.id, { status: "open" }],
    ]);
  });

  it("refuses its owner changing anything but the status, and anyone else neither founder nor admin (403), changing nothing", async () => {
    const { founder, ann, observer, member, meetingId } = await boardWithMeeting("Owner Co");
    const item = await addItem(founder, meetingId, { title: "Sign the lease", ownerId: ann.id, dueDate: "2026-06-12" });
    const someoneElse = await member("member");
    const attempts: [SignedUp, Record<string, unknown>][] = [
      [ann, { title: "Sign nothing", status: "done" }],
      [ann, { dueDate: "2026-12-31" }],
      [ann, { ownerId: founder.id }],
      [someoneElse, { status: "done" }],
      [observer, { status: "done" }],
      [someoneElse, {}],
    ];
    for (const [caller, body] of attempts) {
      const response = await patch(caller, item.id, body);
      expect({ body, status: response.status }).toEqual({ body, status: 403 });
      expect(response.body.message).toBe(deniedMessage("editActionItems"));
    }
    expect(await storedItem(item.id)).toMatchObject({ title: "Sign the lease", status: "open", dueDate: "2026-06-12", ownerId: ann.id });
  });

  it("a founder or admin changes any field, with the owner and due date checked (400, nothing saved); another company's item is 404", async () => {
    const { founder, admin, ann, observer, meetingId } = await boardWithMeeting("Admin Co");
    const item = await addItem(founder, meetingId, { title: "Sign the lease", ownerId: ann.id, dueDate: "2026-06-12" });
    const stranger = await ctx.board("Elsewhere Co");

    const edited = await patch(admin, item.id, { title: "Renew the lease", ownerId: observer.id, dueDate: "2026-06-30" });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({
      title: "Renew the lease",
      ownerId: observer.id,
      ownerName: "Oscar Observer",
      dueDate: "2026-06-30",
    });
    expect((await auditOf(item.id)).at(-1)).toEqual({
      action: "action_item.updated",
      actorId: admin.id,
      details: { title: "Renew the lease", ownerId: observer.id, dueDate: "2026-06-30" },
    });

    const refusals: [Record<string, unknown>, string][] = [
      [{ ownerId: stranger.founder.id }, "ownerId"],
      [{ dueDate: "2026-06-09" }, "dueDate"],
      [{ title: "Two\nlines" }, "title"],
      [{ status: "finished" }, "status"],
    ];
    for (const [body, path] of refusals) {
      const response = await patch(founder, item.id, body);
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
      expect(response.body.errors[0].path).toBe(path);
    }
    expect(await storedItem(item.id)).toMatchObject({ title: "Renew the lease", ownerId: observer.id, dueDate: "2026-06-30" });

    const foreign = await patch(stranger.founder, item.id, { status: "done" });
    expect(foreign.status).toBe(404);
    expect(await storedItem(item.id)).toMatchObject({ status: "open" });
  });
});
