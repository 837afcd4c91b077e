import type { AttendanceStatus, MinutesDraft } from "../../../../shared/meeting-record";
import { meetingRecordFixtures } from "../../testing/meeting-record-fixtures";
import { minutesFixtures } from "../../testing/minutes-fixtures";
import { useTestContext } from "../../testing/test-context";
import { factWords, factsOf, missingFact } from "./minutes-facts";
import { readMinutesRecord } from "./minutes-record.data";

// A show of hands may decide, at a meeting, a resolution that is not on its agenda: the minutes still record it.

const testStart = "2026-06-01T09:00:00.000Z";
const ctx = useTestContext();
afterEach(() => ctx.clock.set(testStart));

const { boardMeeting, inMeeting, recorded, meetingVote, propose } = meetingRecordFixtures(ctx);
const { api, draft } = minutesFixtures(ctx);

const otherDecisionsHeading = "## Other decisions taken at the meeting";

type Board = Awaited<ReturnType<typeof boardMeeting>>;

/**
 * Sets the meeting's agenda to one "Finance" item that takes the resolution; then, at the meeting, records the
 * founder and the first members attending as `statuses` says, in that order, and no guests.
 */
async function heldWithFinanceItem(board: Board, resolutionId: number, statuses: AttendanceStatus[]) {
  const { creator, meetingId, startsAt, founder, members } = board;
  const agenda = await api()
    .put(`/api/meetings/${meetingId}/agenda`)
    .set("Authorization", creator.bearer)
    .send({ items: [{ title: "Finance", durationMinutes: 30, resolutionIds: [resolutionId] }] });
  expect(agenda.status, JSON.stringify(agenda.body)).toBe(200);
  inMeeting(startsAt);
  const people = [founder, ...members];
  const attendees = statuses.map((status, index) => ({ userId: people[index]!.id, status }));
  await recorded(creator, meetingId, { attendees, guests: [] });
}

/**
 * A meeting with one agenda item holding a resolution, where the founder and two members attend; a show of hands
 * decides the agenda's resolution and two resolutions not on the agenda (one rejected, then one approved).
 */
async function meetingWithDecisionsOffTheAgenda() {
  const board = await boardMeeting({ members: 3 });
  const { founder, members, meetingId } = board;
  const onAgenda = await propose(founder, { title: "Approve the FY27 budget", description: "That the FY27 budget be approved." });
  const offAgenda = await propose(founder, { title: "Open a Paris office", description: "That an office be opened in Paris." });
  const refused = await propose(founder, { title: "Sell the van", description: "That the company van be sold.", type: "Special" });
  await heldWithFinanceItem(board, onAgenda, ["present", "present", "remote"]);
  const hands = async (resolutionId: number, choices: ("yes" | "no" | "abstain")[]) => {
    const voters = [founder, members[0]!, members[1]!];
    const response = await meetingVote(founder, resolutionId, {
      meetingId,
      votes: choices.map((vote, index) => ({ userId: voters[index]!.id, vote })),
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  };
  await hands(onAgenda, ["yes", "yes", "no"]);
  await hands(refused, ["no", "no", "yes"]);
  // Decided a minute later, though proposed first.
  ctx.clock.set(new Date(ctx.clock.now().getTime() + 60_000));
  await hands(offAgenda, ["yes", "yes", "abstain"]);
  return { founder, meetingId };
}

describe("minutes of a meeting whose show of hands decided resolutions not on its agenda", () => {
  it("record each such decision under its own heading, with its outcome and tally, after the agenda", async () => {
    const { founder, meetingId } = await meetingWithDecisionsOffTheAgenda();
    const response = await draft(founder, meetingId);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const lines = (response.body as MinutesDraft).text!.split("\n");
    const at = (line: string) => lines.indexOf(line);

    expect(lines).toContain(otherDecisionsHeading);
    expect(at("## Agenda")).toBeLessThan(at(otherDecisionsHeading));
    expect(at(otherDecisionsHeading)).toBeLessThan(at("## Action items"));
    // The agenda's own resolution stays under its item, and only there.
    expect(at("#### Resolution: Approve the FY27 budget (Ordinary)")).toBeLessThan(at(otherDecisionsHeading));
    expect(lines.filter((line) => line.includes("Approve the FY27 budget"))).toHaveLength(1);
    expect(lines).toContain("Approved at this meeting by show of hands: 2 yes, 1 no, 0 abstain");

    const after = lines.slice(at(otherDecisionsHeading));
    expect(after).toContain("### Resolution: Open a Paris office (Ordinary)");
    expect(after).toContain("That an office be opened in Paris.");
    expect(after).toContain("Approved at this meeting by show of hands: 2 yes, 0 no, 1 abstain");
    expect(after).toContain("### Resolution: Sell the van (Special)");
    expect(after).toContain("That the company van be sold.");
    expect(after).toContain("Rejected at this meeting by show of hands: 1 yes, 2 no, 0 abstain");
    // In the order they were decided.
    expect(after.indexOf("### Resolution: Sell the van (Special)")).toBeLessThan(
      after.indexOf("### Resolution: Open a Paris office (Ordinary)"),
    );
  });

  it("has no such heading when every decision taken at the meeting is on its agenda", async () => {
    const board = await boardMeeting({ members: 2 });
    const { founder, members, meetingId } = board;
    const onAgenda = await propose(founder);
    await heldWithFinanceItem(board, onAgenda, ["present", "present"]);
    const hands = await meetingVote(founder, onAgenda, {
      meetingId,
      votes: [
        { userId: founder.id, vote: "yes" },
        { userId: members[0]!.id, vote: "yes" },
      ],
    });
    expect(hands.status, JSON.stringify(hands.body)).toBe(200);
    const text = (await draft(founder, meetingId)).body.text as string;
    expect(text).not.toContain("Other decisions");
    expect(text.split("\n")).toContain("Approved at this meeting by show of hands: 2 yes, 0 no, 0 abstain");
  });

  it("the facts an AI rewording must keep include each such decision's title, wording, outcome and tally", async () => {
    const { founder, meetingId } = await meetingWithDecisionsOffTheAgenda();
    const record = await readMinutesRecord(ctx.db, meetingId);
    const facts = factsOf(record);
    const words = facts.map(factWords);
    for (const fact of [
      "Open a Paris office",
      "That an office be opened in Paris.",
      "Open a Paris office: Approved",
      "Open a Paris office: at this meeting by show of hands",
      "Open a Paris office: 2 yes",
      "Open a Paris office: 0 no",
      "Open a Paris office: 1 abstain",
      "Sell the van: Rejected",
      "Sell the van: 2 no",
    ]) {
      expect(words).toContain(fact);
    }
    const drafted = (await draft(founder, meetingId)).body.text as string;
    expect(missingFact(drafted, facts)).toBeNull();
    // Swapping the two outcomes is caught.
    const swapped = drafted.replace("Rejected at this meeting", "Approved at this meeting");
    expect(missingFact(swapped, facts)).not.toBeNull();
  });
});
