import { agendaItemsFixtures } from "../../testing/agenda-items-fixtures";
import { useTestContext } from "../../testing/test-context";

const ctx = useTestContext();
const minute = 60_000;
const day = 24 * 60 * minute;

const { api, setup, schedule, getAgenda, putAgenda } = agendaItemsFixtures(ctx);

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
          purpose: "discussion",
          documentIds: [],
          resolutionIds: [],
          startsAt: new Date(start).toISOString(),
        },
        expect.objectContaining({
          title: "Financial review",
          durationMinutes: 30,
          description: "Q3 accounts\nand the forecast",
          purpose: "discussion",
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
