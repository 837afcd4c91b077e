import request from "supertest";
import { documentCategories, type DocumentObject } from "../../../../shared/documents";
import { meetingCategory, minutesCategory } from "../../../../shared/meeting-model";
import { documents, meetings } from "../../db/schema";
import { createCompany, scheduleMeeting } from "../../testing/factories";
import { useTestContext, type SignedUp } from "../../testing/test-context";

// GET /api/documents and its category filter: what the meetings page asks for (category=Meeting).
const ctx = useTestContext();

const api = () => request(ctx.app);
const day = 24 * 60 * 60 * 1000;
const list = (user: SignedUp, query: Record<string, string | string[]> = {}) =>
  api().get("/api/documents").query(query).set("Authorization", user.bearer);

/** A note (a document without a file) through the API, a minute after the last thing written. */
async function note(user: SignedUp, name: string, category: string): Promise<number> {
  ctx.clock.advance(60_000);
  const response = await api()
    .post("/api/documents")
    .set("Authorization", user.bearer)
    .send({ name, category, content: `About ${name}` });
  if (response.status !== 201) throw new Error(`note failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.id as number;
}

async function meeting(user: SignedUp, title: string): Promise<number> {
  ctx.clock.advance(60_000);
  return scheduleMeeting(ctx.app, user, new Date(ctx.clock.now().getTime() + 3 * day), { title });
}

/** Approved minutes' PDF and a draft meeting, written as the services write them (neither has a route of its own here). */
async function minutesAndDraft(companyId: number, founderId: number): Promise<{ minutesId: number; draftId: number }> {
  ctx.clock.advance(60_000);
  const [minutes] = await ctx.db
    .insert(documents)
    .values({
      companyId,
      name: "Minutes.pdf",
      fileType: "application/pdf",
      category: minutesCategory,
      uploadedBy: founderId,
      createdAt: ctx.clock.now(),
    })
    .returning({ id: documents.id });
  ctx.clock.advance(60_000);
  const [draft] = await ctx.db
    .insert(documents)
    .values({ companyId, name: "Meeting: Draft", fileType: "application/json", category: meetingCategory, createdAt: ctx.clock.now() })
    .returning({ id: documents.id });
  const start = new Date(ctx.clock.now().getTime() + 5 * day);
  await ctx.db.insert(meetings).values({
    documentId: draft!.id,
    companyId,
    title: "Draft",
    startsAt: start,
    endsAt: new Date(start.getTime() + 2 * 60 * 60 * 1000),
    location: "Board room",
    status: "draft",
    createdBy: founderId,
  });
  return { minutesId: minutes!.id, draftId: draft!.id };
}

/** A board with two meetings, notes of three categories, approved minutes and a draft; and a second board with the same. */
async function twoBoards() {
  const ours = await ctx.board("Category Holdings");
  const theirs = await ctx.board("Neighbour Holdings");
  const ids = {
    budget: await note(ours.founder, "Budget", "Financial"),
    q3: await meeting(ours.founder, "Q3 Board Meeting"),
    lease: await note(ours.founder, "Lease", "Legal"),
    hiring: await note(ours.founder, "Hiring plan", "HR"),
    agm: await meeting(ours.founder, "AGM"),
    accounts: await note(ours.founder, "Accounts", "Financial"),
    ...(await minutesAndDraft(ours.company.id, ours.founder.id)),
  };
  await note(theirs.founder, "Their budget", "Financial");
  await meeting(theirs.founder, "Their board meeting");
  await minutesAndDraft(theirs.company.id, theirs.founder.id);
  return { ours, theirs, ids };
}

describe("GET /api/documents?category=", () => {
  it("answers only the documents of that category, newest first, each as the whole list has it", async () => {
    const { ours, ids } = await twoBoards();
    const all = await list(ours.founder);
    expect(all.status).toBe(200);
    const everything = all.body as DocumentObject[];
    // Without a category, every document of the company but the draft, newest first: the answer it always was.
    expect(everything.map((document) => document.id)).toEqual([
      ids.minutesId,
      ids.accounts,
      ids.agm,
      ids.hiring,
      ids.lease,
      ids.q3,
      ids.budget,
    ]);

    const meetingsOnly = await list(ours.founder, { category: meetingCategory });
    expect(meetingsOnly.status).toBe(200);
    expect((meetingsOnly.body as DocumentObject[]).map((document) => document.id)).toEqual([ids.agm, ids.q3]);
    // A meeting comes with its content rebuilt from its rows, exactly as in the whole list.
    expect(meetingsOnly.body).toEqual(everything.filter((document) => document.category === meetingCategory));
    expect(JSON.parse((meetingsOnly.body as DocumentObject[])[0]!.content!)).toMatchObject({ title: "AGM", status: "pending" });

    // Every category's list is the whole list's share of it, in the same order.
    for (const category of documentCategories) {
      const answer = await list(ours.founder, { category });
      expect(answer.status, category).toBe(200);
      expect(answer.body, category).toEqual(everything.filter((document) => document.category === category));
    }
    expect((await list(ours.founder, { category: "Financial" })).body.map((document: DocumentObject) => document.id)).toEqual([
      ids.accounts,
      ids.budget,
    ]);
    expect((await list(ours.founder, { category: "Marketing" })).body).toEqual([]);
  });

  it("never answers another company's documents, whichever the category, and follows the active company", async () => {
    const { ours, theirs } = await twoBoards();
    for (const category of [undefined, ...documentCategories]) {
      for (const { founder, company } of [ours, theirs]) {
        const answer = await list(founder, category === undefined ? {} : { category });
        expect(answer.status).toBe(200);
        for (const document of answer.body as DocumentObject[])
          expect({ category, companyId: document.companyId }).toEqual({ category, companyId: company.id });
      }
    }
    // A member of both boards sees the meetings of the one that is active.
    const both = await ctx.signUp();
    const third = await createCompany(ctx.db, { name: "Third Holdings", founderId: both.id });
    const meetingsOf = async () => ((await list(both, { category: meetingCategory })).body as DocumentObject[]).map((row) => row.companyId);
    expect(await meetingsOf()).toEqual([]);
    await meeting(both, "Third's meeting");
    expect(await meetingsOf()).toEqual([third.id]);
  });

  it("refuses an unknown, empty, over-long or repeated category with 400 and the error body; answers 401 signed out", async () => {
    const { founder } = await ctx.board("Refusing Holdings");
    const message = `Category must be one of ${documentCategories.join(", ")}`;
    for (const category of ["Minutes", "meeting", "", " Meeting", "x".repeat(5_000), ["Meeting", "Legal"]]) {
      const answer = await list(founder, { category });
      expect(answer.status, String(category).slice(0, 20)).toBe(400);
      expect(answer.body).toEqual({ message, errors: [{ path: "category", message }] });
    }
    expect((await api().get("/api/documents").query({ category: meetingCategory })).status).toBe(401);
  });

  it("costs the same number of queries for 1 meeting as for 10, and as the whole list", async () => {
    const small = await ctx.board("Small Holdings");
    const large = await ctx.board("Large Holdings");
    await meeting(small.founder, "Only one");
    await note(small.founder, "A paper", "Legal");
    for (let index = 0; index < 10; index += 1) {
      await meeting(large.founder, `Meeting ${index}`);
      await note(large.founder, `Paper ${index}`, "Legal");
    }
    const queries = (founder: SignedUp, query: Record<string, string>) =>
      ctx.countQueries(async () => {
        const answer = await list(founder, query);
        expect(answer.status).toBe(200);
        expect(answer.body.length).toBeGreaterThan(0);
      });
    // The clock moved on while the boards were filled: a first read each refreshes its session, which is no part of the list.
    for (const { founder } of [small, large]) expect((await list(founder)).status).toBe(200);
    const smallCount = await queries(small.founder, { category: meetingCategory });
    expect(smallCount).toBeGreaterThan(1); // the session lookup alone is one: the counter works
    expect(await queries(large.founder, { category: meetingCategory })).toBe(smallCount);
    expect(await queries(large.founder, { category: "Legal" })).toBe(smallCount);
    expect(await queries(large.founder, {})).toBe(smallCount);
  });
});
