import type { AgendaItemInput } from "../../../../shared/agenda";
import { formatAgenda } from "../../../../shared/meetings";
import { agendaItemsFixtures, generated } from "../../testing/agenda-items-fixtures";
import { useTestContext } from "../../testing/test-context";

const ctx = useTestContext();
const minute = 60_000;
const day = 24 * 60 * minute;

const { setup, schedule, getAgenda, putAgenda, paper, motion, stateOf } = agendaItemsFixtures(ctx);

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
      {
        title: "New item",
        durationMinutes: 45,
        description: "Fresh",
        purpose: "decision",
        documentIds: [budget, accounts],
        resolutionIds: [approve],
      },
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
        purpose: "discussion",
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
        purpose: "decision",
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
        purpose: "discussion",
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
