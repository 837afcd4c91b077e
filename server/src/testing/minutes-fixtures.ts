import { eq } from "drizzle-orm";
import request from "supertest";
import type { AttendanceStatus } from "../../../shared/meeting-model";
import type { Certificate, ResolutionStatus, ResolutionType, Tally } from "../../../shared/resolutions";
import { actionItems, meetingAttendance, meetingGuests, meetings, resolutions } from "../db/schema";
import { scheduleMeeting } from "./factories";
import type { SignedUp, TestContext } from "./test-context";

// What the minutes tests share: a meeting with a known record (attendance, agenda, resolutions, action items), and
// the minutes requests.

export const minutesTestStart = "2026-06-01T09:00:00.000Z";
/** The known meeting: 10 Jun 2026, 10:00–12:00 UTC. */
export const recordMeetingStart = new Date("2026-06-10T10:00:00.000Z");
/** A moment after the known meeting ended. */
export const afterTheMeeting = "2026-06-11T09:00:00.000Z";

/**
 * A decided resolution's certificate with this tally (the parts the minutes read, and enough of the rest to be
 * whole): by a show of hands in `meetingId`, or online without one.
 */
export function decidedCertificate(outcome: "approved" | "rejected", tally: Tally, decidedAt: Date, meetingId?: number): Certificate {
  const explanation = `${outcome === "approved" ? "Approved" : "Rejected"}: ${tally.yes} yes, ${tally.no} no, ${tally.abstain} abstain`;
  return {
    decidedAt: decidedAt.toISOString(),
    outcome,
    rule: "More yes than no votes",
    quorum: { rule: "more than half of the eligible voters", required: 3, present: tally.yes + tally.no + tally.abstain, met: true },
    eligible: [],
    recused: [],
    votes: [],
    ...tally,
    explanation,
    ...(meetingId === undefined ? {} : { meetingId }),
  };
}

export function minutesFixtures(ctx: TestContext) {
  const api = () => request(ctx.app);

  const getMinutes = (user: SignedUp, meetingId: number) =>
    api().get(`/api/meetings/${meetingId}/minutes`).set("Authorization", user.bearer);
  const draft = (user: SignedUp, meetingId: number, body: Record<string, unknown> = {}) =>
    api().post(`/api/meetings/${meetingId}/minutes/draft`).set("Authorization", user.bearer).send(body);
  const edit = (user: SignedUp, meetingId: number, text: string) =>
    api().put(`/api/meetings/${meetingId}/minutes`).set("Authorization", user.bearer).send({ text });
  const circulate = (user: SignedUp, meetingId: number) =>
    api().post(`/api/meetings/${meetingId}/minutes/circulate`).set("Authorization", user.bearer);
  const approve = (user: SignedUp, meetingId: number, via: "chair" | "resolution") =>
    api().post(`/api/meetings/${meetingId}/minutes/approve`).set("Authorization", user.bearer).send({ via });

  /** Attendance, guests and chair written straight to their tables (no row: absent). */
  async function recordAttendance(
    meetingId: number,
    attendees: { userId: number; status: AttendanceStatus }[],
    guests: string[] = [],
    chairId: number | null = null,
  ) {
    if (attendees.length > 0) await ctx.db.insert(meetingAttendance).values(attendees.map((attendee) => ({ meetingId, ...attendee })));
    if (guests.length > 0) await ctx.db.insert(meetingGuests).values(guests.map((name, position) => ({ meetingId, name, position })));
    await ctx.db.update(meetings).set({ chairId }).where(eq(meetings.documentId, meetingId));
  }

  async function addResolution(
    companyId: number,
    createdBy: number,
    fields: {
      title: string;
      description: string;
      type?: ResolutionType;
      status: ResolutionStatus;
      tally?: Tally;
      /** The meeting whose show of hands decided it; none: decided online. */
      decidedIn?: number;
      decidedAt?: Date;
    },
  ): Promise<number> {
    const decidedAt = fields.decidedAt ?? new Date("2026-06-10T11:00:00.000Z");
    const decided = fields.status !== "pending" && fields.tally;
    const [row] = await ctx.db
      .insert(resolutions)
      .values({
        companyId,
        title: fields.title,
        description: fields.description,
        type: fields.type ?? "Ordinary",
        status: fields.status,
        deadline: new Date("2026-06-20T10:00:00.000Z"),
        createdBy,
        ...(decided
          ? {
              decidedAt,
              certificate: decidedCertificate(fields.status as "approved" | "rejected", fields.tally!, decidedAt, fields.decidedIn),
            }
          : {}),
      })
      .returning({ id: resolutions.id });
    return row!.id;
  }

  /** Uploads a small text paper to the caller's active company; answers its id. */
  async function upload(user: SignedUp, name: string): Promise<number> {
    const content = `data:text/plain;base64,${Buffer.from(`${name}\n`).toString("base64")}`;
    const response = await api().post("/api/documents").set("Authorization", user.bearer).send({ name, category: "Financial", content });
    if (response.status !== 201) throw new Error(`upload failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.id as number;
  }

  /**
   * Zenith Holdings: Fay (founder, chair), Ann (admin, by video), Bob (member, present), Cal (member, the meeting's
   * creator, apologies), Dee (member, absent), Obi (observer, present) and a guest; three items, three resolutions
   * (approved by show of hands at this meeting, rejected online, pending) and two action items. 3 of 5 voting members
   * attend: quorate. No time of close is recorded.
   */
  async function knownRecord(name = "Zenith Holdings") {
    const { founder: fay, company, member } = await ctx.board(name, { firstName: "Fay", lastName: "Founder" });
    const ann = await member("admin", { firstName: "Ann", lastName: "Adams" });
    const bob = await member("member", { firstName: "Bob", lastName: "Brown" });
    const cal = await member("member", { firstName: "Cal", lastName: "Clark" });
    const dee = await member("member", { firstName: "Dee", lastName: "Davis" });
    const obi = await member("observer", { firstName: "Obi", lastName: "Observer" });
    const meetingId = await scheduleMeeting(ctx.app, cal, recordMeetingStart, {
      title: "Q3 Board Meeting",
      location: "Head office, London",
      participants: [fay.id, ann.id, bob.id, cal.id, dee.id, obi.id],
    });
    const budgetPaper = await upload(fay, "Budget 2026.txt");
    const forecastPaper = await upload(fay, "Forecast.txt");
    const budget = await addResolution(company.id, fay.id, {
      title: "Approve the 2026 budget",
      description: "That the budget for 2026 be approved as presented.",
      status: "approved",
      tally: { yes: 3, no: 1, abstain: 0 },
      decidedIn: meetingId,
    });
    const bank = await addResolution(company.id, fay.id, {
      title: "Open a second bank account",
      description: "That the company open an account with a second bank.",
      status: "rejected",
      tally: { yes: 1, no: 2, abstain: 1 },
    });
    const cfo = await addResolution(company.id, fay.id, {
      title: "Appoint a CFO",
      description: "That Jane Doe be appointed Chief Financial Officer.",
      type: "Special",
      status: "pending",
    });
    const agenda = await api()
      .put(`/api/meetings/${meetingId}/agenda`)
      .set("Authorization", cal.bearer)
      .send({
        items: [
          {
            title: "Finance",
            purpose: "decision",
            durationMinutes: 45,
            presenterId: ann.id,
            documentIds: [budgetPaper, forecastPaper],
            resolutionIds: [budget, bank],
          },
          { title: "Hiring", durationMinutes: 30, resolutionIds: [cfo] },
          { title: "Any other business", purpose: "noting", durationMinutes: 15 },
        ],
      });
    if (agenda.status !== 200) throw new Error(`agenda failed: ${agenda.status} ${JSON.stringify(agenda.body)}`);
    await recordAttendance(
      meetingId,
      [
        { userId: fay.id, status: "present" },
        { userId: ann.id, status: "remote" },
        { userId: bob.id, status: "present" },
        { userId: cal.id, status: "apologies" },
        { userId: obi.id, status: "present" },
      ],
      ["Gus Guest"],
      fay.id,
    );
    await ctx.db.insert(actionItems).values([
      { companyId: company.id, meetingId, title: "Send the budget to the bank", ownerId: ann.id, dueDate: "2026-06-24", createdBy: fay.id },
      {
        companyId: company.id,
        meetingId,
        title: "Draft the CFO job description",
        ownerId: bob.id,
        dueDate: "2026-07-01",
        createdBy: fay.id,
      },
    ]);
    return { fay, ann, bob, cal, dee, obi, company, meetingId, resolutionIds: { budget, bank, cfo } };
  }

  /** A small board (founder, an admin, a member, an observer) and a meeting of theirs, with the founder recorded as chair. */
  async function smallBoard(name = "Small Board Ltd") {
    const { founder, company, member } = await ctx.board(name, { firstName: "Fay", lastName: "Founder" });
    const admin = await member("admin", { firstName: "Ada", lastName: "Admin" });
    const plain = await member("member", { firstName: "Max", lastName: "Member" });
    const observer = await member("observer", { firstName: "Ola", lastName: "Observer" });
    const meetingId = await scheduleMeeting(ctx.app, founder, recordMeetingStart, {
      title: "Board Meeting",
      location: "Board room",
      participants: [founder.id, admin.id, plain.id, observer.id],
    });
    await recordAttendance(
      meetingId,
      [
        { userId: founder.id, status: "present" },
        { userId: admin.id, status: "present" },
        { userId: plain.id, status: "remote" },
      ],
      [],
      founder.id,
    );
    return { founder, admin, plain, observer, company, meetingId };
  }

  return { api, getMinutes, draft, edit, circulate, approve, recordAttendance, addResolution, upload, knownRecord, smallBoard };
}
