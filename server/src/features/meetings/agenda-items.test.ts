import { eq } from "drizzle-orm";
import request from "supertest";
import type { AgendaItemInput } from "../../../../shared/agenda";
import { formatAgenda } from "../../../../shared/meetings";
import { documents, meetings, resolutions } from "../../db/schema";
import { scheduleMeeting } from "../../testing/factories";
import { useTestContext, type SignedUp } from "../../testing/test-context";

const ctx = useTestContext();
const api = () => request(ctx.app);
const minute = 60_000;
const day = 24 * 60 * minute;

const generated = [
  { title: "Call to order", duration: 5, description: "" },
  { title: "Financial review", duration: 30, description: "Q3 accounts\nand the forecast" },
  { title: "Any other business", duration: 10, description: "" },
];

/** A board whose member `creator` scheduled a meeting (the numbered list above as its agenda). */
async function setup(name = "Acme Holdings") {
  const { founder, company, member } = await ctx.board(name);
  const admin = await member("admin");
  const creator = await member("member");
  const other = await member("member");
  const observer = await member("observer");
  const meetingId = await schedule(creator, formatAgenda(generated));
  return { founder, company, admin, creator, other, observer, meetingId };
}

const schedule = (user: SignedUp, agenda: string, start = new Date(ctx.clock.now().getTime() + 3 * day)) =>
  scheduleMeeting(ctx.app, user, start, { agenda });

const getAgenda = (user: SignedUp, meetingId: number) => api().get(`/api/meetings/${meetingId}/agenda`).set("Authorization", user.bearer);
const putAgenda = (user: SignedUp, meetingId: number, items: AgendaItemInput[]) =>
  api().put(`/api/meetings/${meetingId}/agenda`).set("Authorization", user.bearer).send({ items });

async function paper(companyId: number, category = "Financial"): Promise<number> {
  const [row] = await ctx.db
    .insert(documents)
    .values({ companyId, name: "Accounts.pdf", fileType: "application/pdf", fileSize: 10, category })
    .returning({ id: documents.id });
  return row!.id;
}

async function motion(companyId: number): Promise<number> {
  const [row] = await ctx.db
    .insert(resolutions)
    .values({
      companyId,
      title: "Approve accounts",
      description: "",
      type: "Ordinary",
      deadline: new Date(ctx.clock.now().getTime() + day),
    })
    .returning({ id: resolutions.id });
  return row!.id;
}

/** Everything an agenda write touches: the items, the meeting's agenda text and its document's size. */
async function stateOf(user: SignedUp, meetingId: number) {
  const agenda = await getAgenda(user, meetingId);
  const document = await api().get(`/api/documents/${meetingId}`).set("Authorization", user.bearer);
  return { items: agenda.body.items, content: document.body.content, fileSize: document.body.fileSize };
}

const errorPaths = (body: { errors?: { path: string }[] }) => body.errors?.map((error) => error.path);

describe("GET /api/meetings/:id/agenda", () => {
  it("answers the items scheduling made, in order, with their start times, to every member (observers too)", async () => {
    const { creator, observer, other, meetingId } = await setup();
    const start = new Date(ctx.clock.now().getTime() + 3 * day).getTime();
    for (const reader of [creator, other, observer]) {
      const response = await getAgenda(reader, meetingId);
      expect(response.status).toBe(200);
      expect(response.body.items).toEqual([
        {
          id: expect.any(Number),
          title: "Call to order",
          presenterId: null,
          durationMinutes: 5,
          description: "",
          documentIds: [],
          resolutionIds: [],
          startsAt: new Date(start).toISOString(),
        },
        expect.objectContaining({
          title: "Financial review",
          durationMinutes: 30,
          description: "Q3 accounts\nand the forecast",
          startsAt: new Date(start + 5 * minute).toISOString(),
        }),
        expect.objectContaining({
          title: "Any other business",
          durationMinutes: 10,
          startsAt: new Date(start + 35 * minute).toISOString(),
        }),
      ]);
    }
  });

  it("is 404 for another company's member, a draft and an id that names nothing", async () => {
    const { founder, meetingId } = await setup();
    const stranger = (await ctx.board("Elsewhere")).founder;
    expect((await getAgenda(stranger, meetingId)).status).toBe(404);
    expect((await putAgenda(stranger, meetingId, [])).status).toBe(404);
    const draft = await api()
      .post("/api/new-meeting")
      .set("Authorization", founder.bearer)
      .send({ title: "Draft", date: new Date(ctx.clock.now().getTime() + day).toISOString() });
    expect(draft.status).toBe(201);
    expect((await getAgenda(founder, draft.body.id)).status).toBe(404);
    expect((await putAgenda(founder, draft.body.id, [])).status).toBe(404);
    expect((await getAgenda(founder, 999_999)).status).toBe(404);
  });
});

describe("scheduling makes the items from the agenda text", () => {
  it("one item from free text (its first line the title, the meeting's length), none from a blank agenda", async () => {
    const { founder } = await ctx.board();
    const free = await schedule(founder, "Discuss the merger\nBring the term sheet");
    expect((await getAgenda(founder, free)).body.items).toEqual([
      expect.objectContaining({ title: "Discuss the merger", description: "Bring the term sheet", durationMinutes: 120 }),
    ]);
    const blank = await schedule(founder, "  ");
    expect((await getAgenda(founder, blank)).body.items).toEqual([]);
  });
});

describe("PUT /api/meetings/:id/agenda", () => {
  it("lets founders, admins and the meeting's creator edit; refuses observers and other members (403)", async () => {
    const { founder, admin, creator, other, observer, meetingId } = await setup();
    for (const [index, editor] of [founder, admin, creator].entries()) {
      const response = await putAgenda(editor, meetingId, [{ title: `Edit ${index}`, durationMinutes: 15 }]);
      expect(response.status).toBe(200);
      expect(response.body.items).toEqual([expect.objectContaining({ title: `Edit ${index}` })]);
    }
    for (const refused of [other, observer]) {
      const response = await putAgenda(refused, meetingId, [{ title: "Mine now", durationMinutes: 15 }]);
      expect(response.status).toBe(403);
      expect(response.body.message).toBe("Only founders, admins and the meeting's creator can edit the agenda");
    }
    expect((await getAgenda(observer, meetingId)).body.items).toEqual([expect.objectContaining({ title: "Edit 2" })]);
  });

  it("replaces the list in order, keeping the identity of items sent back with their id, and rewrites the agenda text", async () => {
    const { founder, company, other, meetingId } = await setup();
    const before = (await getAgenda(founder, meetingId)).body.items;
    const [accounts, budget] = [await paper(company.id), await paper(company.id, "Legal")];
    const approve = await motion(company.id);
    const items: AgendaItemInput[] = [
      { id: before[2].id, title: "AOB first", durationMinutes: 20, presenterId: other.id },
      { title: "New item", durationMinutes: 45, description: "Fresh", documentIds: [budget, accounts], resolutionIds: [approve] },
      { id: before[0].id, title: "Call to order", durationMinutes: 5, documentIds: [accounts] },
    ];
    const response = await putAgenda(founder, meetingId, items);
    expect(response.status).toBe(200);
    const start = new Date(ctx.clock.now().getTime() + 3 * day).getTime();
    expect(response.body.items).toEqual([
      {
        id: before[2].id,
        title: "AOB first",
        presenterId: other.id,
        durationMinutes: 20,
        description: "",
        documentIds: [],
        resolutionIds: [],
        startsAt: new Date(start).toISOString(),
      },
      {
        id: expect.any(Number),
        title: "New item",
        presenterId: null,
        durationMinutes: 45,
        description: "Fresh",
        documentIds: [budget, accounts],
        resolutionIds: [approve],
        startsAt: new Date(start + 20 * minute).toISOString(),
      },
      {
        id: before[0].id,
        title: "Call to order",
        presenterId: null,
        durationMinutes: 5,
        description: "",
        documentIds: [accounts],
        resolutionIds: [],
        startsAt: new Date(start + 65 * minute).toISOString(),
      },
    ]);
    expect(before.map((item: { id: number }) => item.id)).not.toContain(response.body.items[1].id);
    expect((await getAgenda(other, meetingId)).body).toEqual(response.body);

    const state = await stateOf(other, meetingId);
    expect(JSON.parse(state.content).agenda).toBe("1. AOB first (20 min)\n\n2. New item (45 min)\nFresh\n\n3. Call to order (5 min)");
    expect(state.fileSize).toBe(Buffer.byteLength(state.content, "utf8"));

    // Sent again with their ids and the links reordered, the items stay the same rows.
    const again = await putAgenda(founder, meetingId, [
      { ...items[1]!, id: response.body.items[1].id, documentIds: [accounts, budget] },
      { ...items[0]!, id: before[2].id },
    ]);
    expect(again.status).toBe(200);
    expect(again.body.items.map((item: { id: number; documentIds: number[] }) => [item.id, item.documentIds])).toEqual([
      [response.body.items[1].id, [accounts, budget]],
      [before[2].id, []],
    ]);
    const cleared = await putAgenda(founder, meetingId, []);
    expect(cleared.body.items).toEqual([]);
    expect(JSON.parse((await stateOf(founder, meetingId)).content).agenda).toBe("");
  });

  it.each([
    ["51 items", () => Array.from({ length: 51 }, () => ({ title: "Item", durationMinutes: 5 })), "items"],
    ["a duration of 0", () => [{ title: "Item", durationMinutes: 0 }], "items.0.durationMinutes"],
    [
      "a duration of 481",
      () => [
        { title: "Ok", durationMinutes: 5 },
        { title: "Item", durationMinutes: 481 },
      ],
      "items.1.durationMinutes",
    ],
    ["a title over 200 characters", () => [{ title: "x".repeat(201), durationMinutes: 5 }], "items.0.title"],
    ["a title over two lines", () => [{ title: "Budget\nreview", durationMinutes: 5 }], "items.0.title"],
    ["a control character in a title", () => [{ title: "Budget\u0007", durationMinutes: 5 }], "items.0.title"],
    [
      "an item named twice",
      () => [
        { id: 1, title: "A", durationMinutes: 5 },
        { id: 1, title: "B", durationMinutes: 5 },
      ],
      "items.1.id",
    ],
  ])("refuses %s (400) and changes nothing", async (_case, items, path) => {
    const { founder, meetingId } = await setup();
    const before = await stateOf(founder, meetingId);
    const response = await putAgenda(founder, meetingId, items());
    expect(response.status).toBe(400);
    expect(errorPaths(response.body)).toContain(path);
    expect(await stateOf(founder, meetingId)).toEqual(before);
  });

  it("refuses items whose agenda text would outgrow a typed agenda's 20,000 characters (400)", async () => {
    const { founder, meetingId } = await setup();
    const before = await stateOf(founder, meetingId);
    // Ten items of a full title and description: each alone is allowed, together they write over 22,000 characters.
    const items = Array.from({ length: 10 }, (_, index) => ({
      title: `${index}`.repeat(200),
      durationMinutes: 5,
      description: "d".repeat(2_000),
    }));
    const response = await putAgenda(founder, meetingId, items);
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ path: "items", message: "The agenda is too long: at most 20,000 characters in all" }]);
    expect(await stateOf(founder, meetingId)).toEqual(before);
    expect((await putAgenda(founder, meetingId, items.slice(0, 8))).status).toBe(200);
  });

  it("refuses a presenter who is not a member (400) and an item of another meeting (400)", async () => {
    const { founder, meetingId } = await setup();
    const outsider = (await ctx.board("Elsewhere")).founder;
    const presenter = await putAgenda(founder, meetingId, [
      { title: "Ok", durationMinutes: 5, presenterId: founder.id },
      { title: "Outsider", durationMinutes: 5, presenterId: outsider.id },
    ]);
    expect(presenter.status).toBe(400);
    expect(errorPaths(presenter.body)).toEqual(["items.1.presenterId"]);

    const otherMeeting = await schedule(founder, "Another meeting");
    const [foreign] = (await getAgenda(founder, otherMeeting)).body.items;
    const [own] = (await getAgenda(founder, meetingId)).body.items;
    const item = await putAgenda(founder, meetingId, [
      { id: own.id, title: "Mine", durationMinutes: 5 },
      { id: foreign.id, title: "Theirs", durationMinutes: 5 },
    ]);
    expect(item.status).toBe(400);
    expect(errorPaths(item.body)).toEqual(["items.1.id"]);
    expect((await getAgenda(founder, otherMeeting)).body.items).toEqual([foreign]);
  });

  it("refuses another company's paper or resolution, a meeting as a paper and ids that name nothing (404)", async () => {
    const { founder, company, meetingId } = await setup();
    const elsewhere = await ctx.board("Elsewhere");
    const theirPaper = await paper(elsewhere.company.id);
    const theirMotion = await motion(elsewhere.company.id);
    const ownPaper = await paper(company.id);
    const before = await stateOf(founder, meetingId);
    for (const [documentIds, resolutionIds, path] of [
      [[ownPaper, theirPaper], [], "items.0.documentIds"],
      [[meetingId], [], "items.0.documentIds"],
      [[999_999], [], "items.0.documentIds"],
      [[], [theirMotion], "items.0.resolutionIds"],
      [[], [999_999], "items.0.resolutionIds"],
    ] as const) {
      const response = await putAgenda(founder, meetingId, [
        { title: "Papers", durationMinutes: 5, documentIds: [...documentIds], resolutionIds: [...resolutionIds] },
      ]);
      expect(response.status).toBe(404);
      expect(errorPaths(response.body)).toEqual([path]);
    }
    expect(await stateOf(founder, meetingId)).toEqual(before);
  });

  it("leaves the old agenda whole when its third item fails", async () => {
    const { founder, company, meetingId } = await setup();
    const accounts = await paper(company.id);
    const first = await putAgenda(founder, meetingId, [
      { title: "Kept", durationMinutes: 10, documentIds: [accounts], resolutionIds: [await motion(company.id)] },
      { title: "Also kept", durationMinutes: 20 },
    ]);
    expect(first.status).toBe(200);
    const before = await stateOf(founder, meetingId);
    const theirPaper = await paper((await ctx.board("Elsewhere")).company.id);
    const response = await putAgenda(founder, meetingId, [
      { id: first.body.items[1].id, title: "Renamed", durationMinutes: 5 },
      { title: "New", durationMinutes: 5, documentIds: [accounts] },
      { title: "Bad", durationMinutes: 5, documentIds: [theirPaper] },
    ]);
    expect(response.status).toBe(404);
    expect(errorPaths(response.body)).toEqual(["items.2.documentIds"]);
    expect(await stateOf(founder, meetingId)).toEqual(before);
  });

  it("refuses to change a cancelled meeting's agenda (409)", async () => {
    const { founder, meetingId } = await setup();
    await ctx.db.update(meetings).set({ status: "cancelled" }).where(eq(meetings.documentId, meetingId));
    const response = await putAgenda(founder, meetingId, [{ title: "Too late", durationMinutes: 5 }]);
    expect(response.status).toBe(409);
    expect(response.body.message).toBe("A cancelled meeting's agenda cannot be changed");
    expect((await getAgenda(founder, meetingId)).body.items).toHaveLength(3);
  });

  it("applies edits sent at once one after the other: the agenda ends as one of them, whole", async () => {
    const { founder, admin, creator, meetingId } = await setup();
    const editors = [founder, admin, creator, founder, admin, creator];
    const list = (editor: number) => Array.from({ length: 8 }, (_, index) => ({ title: `Edit ${editor}.${index}`, durationMinutes: 5 }));
    for (let round = 0; round < 3; round += 1) {
      const answers = await Promise.all(editors.map((editor, index) => putAgenda(editor, meetingId, list(index))));
      expect(answers.map((answer) => answer.status)).toEqual(editors.map(() => 200));
      const titles = (await getAgenda(founder, meetingId)).body.items.map((item: { title: string }) => item.title);
      expect(editors.map((_, index) => list(index).map((item) => item.title))).toContainEqual(titles);
    }
  });

  it("costs the same number of queries for 2 items as for 40", async () => {
    const { founder, company, other } = await setup();
    const [accounts, approve] = [await paper(company.id), await motion(company.id)];
    const item = (index: number) => ({
      title: `Item ${index}`,
      durationMinutes: 5,
      presenterId: other.id,
      documentIds: [accounts],
      resolutionIds: [approve],
    });
    const costs = [];
    for (const size of [2, 40]) {
      const meetingId = await schedule(founder, formatAgenda(generated));
      const items = Array.from({ length: size }, (_, index) => item(index));
      let written: { id: number }[] = [];
      const fresh = await ctx.countQueries(async () => {
        written = (await putAgenda(founder, meetingId, items)).body.items;
      });
      const kept = await ctx.countQueries(() =>
        putAgenda(
          founder,
          meetingId,
          items.map((value, index) => ({ ...value, id: written[index]!.id })),
        ),
      );
      costs.push({ fresh, kept });
      expect(written).toHaveLength(size);
    }
    expect(costs[1]).toEqual(costs[0]);
  });
});
