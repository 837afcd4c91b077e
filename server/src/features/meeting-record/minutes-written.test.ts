import { scheduleMeeting } from "../../testing/factories";
import { minutesFixtures, minutesTestStart } from "../../testing/minutes-fixtures";
import { useTestContext } from "../../testing/test-context";
import { decideWrittenResolution, insertWrittenResolution } from "../../testing/written-rows";
import { factWords, factsOf, missingFact } from "./minutes-facts";
import { readMinutesRecord } from "./minutes-record.data";

// The drafted minutes record, as noted under their own heading, the written resolutions passed since the previous
// meeting: each with the day it took effect.

const ctx = useTestContext();
afterEach(() => ctx.clock.set(minutesTestStart));
const { draft, smallBoard } = minutesFixtures(ctx);

const heading = "## Written resolutions noted";

/**
 * The small board's meeting of 10 June, after one on 2 June, with written resolutions decided before, between and
 * after them (passed, rejected, referred), and another company's.
 */
async function meetingAfterWrittenResolutions(name: string) {
  const board = await smallBoard(name);
  const { founder, company } = board;
  await scheduleMeeting(ctx.app, founder, new Date("2026-06-02T10:00:00.000Z"), { title: "Early June board" });
  const written = async (title: string, outcome: "approved" | "rejected" | "referred", effective: string) => {
    const id = await insertWrittenResolution(ctx.db, {
      companyId: company.id,
      createdBy: founder.id,
      lapsesAt: new Date("2026-07-30T00:00:00.000Z"),
      title,
    });
    await decideWrittenResolution(ctx.db, id, outcome, new Date(effective));
  };
  await written("Before the last meeting", "approved", "2026-06-01T12:00:00.000Z");
  await written("Appoint the auditors", "approved", "2026-06-08T08:30:00.000Z");
  await written("Adopt the share option plan", "approved", "2026-06-05T16:00:00.000Z");
  await written("Buy a company car", "rejected", "2026-06-06T10:00:00.000Z");
  await written("Move the registered office", "referred", "2026-06-07T10:00:00.000Z");
  await written("After this meeting", "approved", "2026-06-10T10:00:00.001Z");
  return board;
}

describe("written resolutions in the drafted minutes", () => {
  it("are noted under their own heading, after the agenda and before the action items, in the order they took effect", async () => {
    const { founder, meetingId } = await meetingAfterWrittenResolutions("Noted Ltd");
    await meetingAfterWrittenResolutions("Another Ltd");

    const response = await draft(founder, meetingId);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const lines = (response.body.text as string).split("\n");
    const at = lines.indexOf(heading);
    expect(at).toBeGreaterThan(lines.indexOf("## Agenda"));
    expect(lines.indexOf("## Action items")).toBeGreaterThan(at);
    expect(lines.slice(at, lines.indexOf("## Action items"))).toEqual([
      heading,
      "",
      "The board noted these resolutions, passed by the directors in writing since the previous meeting:",
      "",
      "- Adopt the share option plan: effective 5 Jun 2026",
      "- Appoint the auditors: effective 8 Jun 2026",
      "",
    ]);
  });

  it("are left out when none passed since the previous meeting", async () => {
    const { founder, meetingId } = await smallBoard("Quiet Ltd");
    const text = (await draft(founder, meetingId)).body.text as string;
    expect(text).not.toContain("Written resolutions");
  });

  it("are facts an AI rewording must keep: each title with its effective day", async () => {
    const { founder, meetingId } = await meetingAfterWrittenResolutions("Facts Ltd");
    const facts = factsOf(await readMinutesRecord(ctx.db, meetingId));
    expect(facts.map(factWords)).toEqual(expect.arrayContaining(["Appoint the auditors", "Appoint the auditors: 8 Jun 2026"]));
    const drafted = (await draft(founder, meetingId)).body.text as string;
    expect(missingFact(drafted, facts)).toBeNull();
    const dropped = drafted.replace("- Appoint the auditors: effective 8 Jun 2026\n", "");
    expect(factWords(missingFact(dropped, facts)!)).toBe("Appoint the auditors");
    const redated = drafted.replace("Appoint the auditors: effective 8 Jun 2026", "Appoint the auditors: effective 9 Jun 2026");
    expect(missingFact(redated, facts)).not.toBeNull();
  });
});
