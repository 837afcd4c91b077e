import { and, eq } from "drizzle-orm";
import request from "supertest";
import {
  actionItems,
  agendaItemDocuments,
  agendaItemResolutions,
  agendaItems,
  companies,
  documents,
  meetingMinutes,
  meetings,
  memberships,
  resolutions,
} from "../../db/schema";
import { createCompany, addMember, scheduleMeeting } from "../../testing/factories";
import { searchFixtures } from "../../testing/search-fixtures";
import { useTestContext, type SignedUp } from "../../testing/test-context";
import { linesPdf, versionFixtures } from "../../testing/version-fixtures";

const ctx = useTestContext();
const { upload } = versionFixtures(ctx);
const { found, searchAs, titlesOf } = searchFixtures(ctx);

const sorted = (titles: string[]) => [...titles].sort();

async function addAgendaItem(meetingId: number, title: string, description: string): Promise<number> {
  const [item] = await ctx.db.insert(agendaItems).values({ meetingId, position: 0, title, durationMinutes: 30, description }).returning();
  return item!.id;
}

const addMinutes = (meetingId: number, status: "draft" | "circulated", text: string) =>
  ctx.db.insert(meetingMinutes).values({ meetingId, status, text });

/** A meeting left a draft (as the agenda generator makes one): nobody's to find. */
async function addDraftMeeting(companyId: number, createdBy: number, title: string): Promise<void> {
  const [document] = await ctx.db
    .insert(documents)
    .values({ companyId, name: `Meeting: ${title}`, fileType: "application/json", category: "Meeting", uploadedBy: createdBy })
    .returning();
  const startsAt = new Date("2026-06-20T10:00:00.000Z");
  await ctx.db.insert(meetings).values({
    documentId: document!.id,
    companyId,
    title,
    startsAt,
    endsAt: new Date(startsAt.getTime() + 7_200_000),
    location: "Lighthouse",
    status: "draft",
    createdBy,
  });
}

/**
 * Lighthouse Ltd: a meeting by Cal (a member) with an item, draft minutes and an action item; a meeting by the founder
 * with circulated minutes; one by Dee, since made an observer, with draft minutes; a draft meeting; a resolution and a
 * paper on the first meeting's item, and a paper on no agenda. Everything says "lighthouse".
 */
async function lighthouseBoard() {
  const { founder, company, member } = await ctx.board("Lighthouse Ltd");
  const cal = await member("member");
  const bob = await member("member");
  const dee = await member("member");
  const obi = await member("observer");
  const harbour = await scheduleMeeting(ctx.app, cal, new Date("2026-06-10T10:00:00.000Z"), {
    title: "Harbour review",
    location: "Lighthouse room",
  });
  const sale = await scheduleMeeting(ctx.app, founder, new Date("2026-07-10T10:00:00.000Z"), { title: "Sale meeting", location: "Office" });
  const deeMeeting = await scheduleMeeting(ctx.app, dee, new Date("2026-06-12T10:00:00.000Z"), {
    title: "Dee's meeting",
    location: "Cafe",
  });
  await ctx.db
    .update(memberships)
    .set({ role: "observer" })
    .where(and(eq(memberships.companyId, company.id), eq(memberships.userId, dee.id)));
  await addDraftMeeting(company.id, founder.id, "Lighthouse draft");

  const item = await addAgendaItem(harbour, "Lighthouse maintenance", "Repaint the tower");
  await addMinutes(harbour, "draft", "The lighthouse keeper resigned.");
  await addMinutes(sale, "circulated", "The lighthouse was sold.");
  await addMinutes(deeMeeting, "draft", "The lighthouse café opened.");
  await ctx.db
    .insert(actionItems)
    .values({ companyId: company.id, meetingId: harbour, title: "Inspect the lighthouse lamp", ownerId: bob.id, dueDate: "2026-07-01" });
  const [resolution] = await ctx.db
    .insert(resolutions)
    .values({
      companyId: company.id,
      title: "Sell the lighthouse",
      description: "That the board sells it.",
      type: "Ordinary",
      deadline: new Date("2026-07-01T10:00:00.000Z"),
      createdBy: founder.id,
    })
    .returning();
  await ctx.db.insert(agendaItemResolutions).values({ itemId: item, resolutionId: resolution!.id, position: 0 });
  const survey = await upload(founder, "Survey.pdf", await linesPdf([["Lighthouse survey"]]));
  await ctx.db.insert(agendaItemDocuments).values({ itemId: item, documentId: survey.id, position: 0 });
  await upload(founder, "Leaflet.pdf", await linesPdf([["Visit the lighthouse"]]));
  return { founder, company, cal, bob, dee, obi, harbour, sale, deeMeeting };
}

/** What everyone of the board finds; the draft minutes each may also read are added by the test. */
const seenByAll = [
  "actionItem: Inspect the lighthouse lamp",
  "agendaItem: Lighthouse maintenance",
  "document: Leaflet.pdf",
  "document: Survey.pdf",
  "meeting: Harbour review",
  "minutes: Sale meeting",
  "resolution: Sell the lighthouse",
];

describe("what each member finds", () => {
  it("is what each kind's own screens show them: draft minutes only to those who keep the meeting's record", async () => {
    const { founder, cal, bob, dee, obi } = await lighthouseBoard();
    const titles = async (user: SignedUp) => sorted(titlesOf(await found(user, { q: "lighthouse" })));
    // The founder keeps every meeting's record; Cal his own meeting's; Dee no longer (an observer now).
    expect(await titles(founder)).toEqual(sorted([...seenByAll, "minutes: Harbour review", "minutes: Dee's meeting"]));
    expect(await titles(cal)).toEqual(sorted([...seenByAll, "minutes: Harbour review"]));
    for (const user of [bob, obi, dee]) expect(await titles(user)).toEqual(sorted(seenByAll));
  });

  it("names each result's meeting, and narrows to one meeting: its items, minutes, actions and its agenda's papers and resolutions", async () => {
    const { founder, harbour, sale } = await lighthouseBoard();
    const page = await found(founder, { q: "lighthouse", meetingId: harbour });
    expect(sorted(titlesOf(page))).toEqual(
      sorted([
        "actionItem: Inspect the lighthouse lamp",
        "agendaItem: Lighthouse maintenance",
        "document: Survey.pdf",
        "meeting: Harbour review",
        "minutes: Harbour review",
        "resolution: Sell the lighthouse",
      ]),
    );
    const meetingOf = (kind: string) => page.results.find((result) => result.kind === kind)?.meetingId;
    expect([meetingOf("agendaItem"), meetingOf("minutes"), meetingOf("actionItem"), meetingOf("meeting")]).toEqual([
      harbour,
      harbour,
      harbour,
      harbour,
    ]);
    expect(titlesOf(await found(founder, { q: "lighthouse", meetingId: sale }))).toEqual(["minutes: Sale meeting"]);
  });

  it("narrows to one kind, and to dates (each end included, on when the thing happened)", async () => {
    const { founder } = await lighthouseBoard();
    expect(titlesOf(await found(founder, { q: "lighthouse", kind: "resolution" }))).toEqual(["resolution: Sell the lighthouse"]);
    expect(sorted(titlesOf(await found(founder, { q: "lighthouse", kind: "minutes", from: "2026-06-12" })))).toEqual([
      "minutes: Dee's meeting",
      "minutes: Sale meeting",
    ]);
    expect(titlesOf(await found(founder, { q: "lighthouse", kind: "minutes", from: "2026-06-11", to: "2026-06-12" }))).toEqual([
      "minutes: Dee's meeting",
    ]);
    // Papers count from their upload (the test clock's day).
    expect(titlesOf(await found(founder, { q: "lighthouse", kind: "document", to: "2026-05-31" }))).toEqual([]);
  });
});

describe("which companies are searched", () => {
  it("the active company's alone, or every company of the caller's with scope=all, never one they left", async () => {
    const { founder: first } = await ctx.board("First Board");
    await upload(first, "One.pdf", await linesPdf([["Quince orchard"]]));
    const second = await createCompany(ctx.db, { name: "Second Board", founderId: first.id });
    await upload(first, "Two.pdf", await linesPdf([["Quince jam"]]));
    const left = await createCompany(ctx.db, { name: "Left Board", founderId: first.id, activate: false });
    await ctx.db.insert(documents).values({ companyId: left.id, name: "Quince notes", fileType: "text/plain", category: "Other" });
    await ctx.db.delete(memberships).where(and(eq(memberships.companyId, left.id), eq(memberships.userId, first.id)));

    // Second Board is the active one.
    expect(titlesOf(await found(first, { q: "quince" }))).toEqual(["document: Two.pdf"]);
    const all = await found(first, { q: "quince", scope: "all" });
    expect(sorted(all.results.map((result) => `${result.companyName}: ${result.title}`))).toEqual([
      "First Board: One.pdf",
      "Second Board: Two.pdf",
    ]);
    expect(all.results.find((result) => result.title === "Two.pdf")?.companyId).toBe(second.id);
  });

  it("none without an active company; a company requiring a second factor only from a session that passed one", async () => {
    const loner = await ctx.signUp();
    expect(await found(loner, { q: "anything" })).toEqual({ results: [], nextCursor: null, morePagesMatched: false, unsearched: [] });

    const { founder, company } = await ctx.board("Guarded Board");
    await upload(founder, "Vault.pdf", await linesPdf([["Vault combination"]]));
    await ctx.db.update(companies).set({ requireSecondFactor: true }).where(eq(companies.id, company.id));
    for (const scope of ["company", "all"]) expect((await found(founder, { q: "vault", scope })).results).toEqual([]);
  });

  it("answers 400 for a meeting of a company not searched (another's, or a draft)", async () => {
    const { founder, harbour } = await lighthouseBoard();
    const outsider = (await ctx.board("Elsewhere Ltd")).founder;
    const refused = await searchAs(outsider, { q: "lighthouse", meetingId: harbour });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: "That meeting is not one of the boards searched" });
    const [draft] = await ctx.db.select({ id: meetings.documentId }).from(meetings).where(eq(meetings.status, "draft"));
    expect((await searchAs(founder, { q: "lighthouse", meetingId: draft!.id })).status).toBe(400);
    // With scope=all a meeting of any of the caller's companies narrows the search.
    const member = await ctx.signUp();
    await addMember(
      ctx.db,
      (await ctx.db.select().from(meetings).where(eq(meetings.documentId, harbour)))[0]!.companyId,
      member.id,
      "member",
    );
    await createCompany(ctx.db, { name: "Member's own", founderId: member.id });
    expect((await searchAs(member, { q: "lighthouse", meetingId: harbour })).status).toBe(400);
    const narrowed = await request(ctx.app)
      .get("/api/search")
      .query({ q: "lighthouse", meetingId: harbour, scope: "all" })
      .set("Authorization", member.bearer);
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.results.length).toBeGreaterThan(0);
  });
});
