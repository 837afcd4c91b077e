import { eq } from "drizzle-orm";
import { meetings } from "../../db/schema";
import { agendaItemsFixtures } from "../../testing/agenda-items-fixtures";
import { useTestContext } from "../../testing/test-context";

const ctx = useTestContext();

const { setup, schedule, getAgenda, putAgenda, paper, motion, stateOf, errorPaths } = agendaItemsFixtures(ctx);

describe("PUT /api/meetings/:id/agenda", () => {
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
});
