import { createHash } from "node:crypto";
import { createServer, type AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { complianceRuleIds, type ComplianceGroup } from "../../../../shared/compliance";
import type { Minutes } from "../../../../shared/meeting-record";
import { deniedMessage } from "../../../../shared/permissions";
import type { ResolutionDetails } from "../../../../shared/resolutions";
import { auditEvents, documents, fileSweep, meetingMinutes, meetings, platformServices } from "../../db/schema";
import { encryptSecret } from "../../integrations/secrets";
import { readPack } from "../../testing/board-pack-fixtures";
import { afterTheMeeting, minutesFixtures, minutesTestStart } from "../../testing/minutes-fixtures";
import { useTestContext, type SignedUp } from "../../testing/test-context";
import { minutesPdfFailedMessage } from "./minutes-approval";
import { alreadyProposedMessage, beforeTheBoardMessage, notTheChairMessage, settleMinutesApproval } from "./minutes.service";
import { pdfWorkLimits } from "./pdf-pool";

const ctx = useTestContext();
afterEach(() => ctx.clock.set(minutesTestStart));
const { api, getMinutes, draft, edit, circulate, approve, knownRecord, smallBoard } = minutesFixtures(ctx);

/** A local port nothing listens on: it was free a moment ago and is closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  return port;
}

const sha256 = (text: string) => createHash("sha256").update(Buffer.from(text, "utf8")).digest("hex");

/** Drafts and circulates the minutes after the meeting; answers their text. */
async function circulated(user: SignedUp, meetingId: number): Promise<string> {
  ctx.clock.set(afterTheMeeting);
  expect((await draft(user, meetingId)).status).toBe(200);
  const response = await circulate(user, meetingId);
  expect(response.status).toBe(200);
  return response.body.text as string;
}

async function pdfText(user: SignedUp, documentId: number): Promise<string> {
  const response = await api().get(`/api/documents/${documentId}/download`).set("Authorization", user.bearer).responseType("blob");
  expect(response.status).toBe(200);
  expect(response.headers["content-type"]).toBe("application/pdf");
  const { pages } = await readPack(response.body as Buffer);
  return pages.map((page) => page.text).join(" ");
}

async function minutesRule(user: SignedUp, companyId: number) {
  const response = await api().get(`/api/companies/${companyId}/compliance`).set("Authorization", user.bearer);
  expect(response.status).toBe(200);
  return (response.body as ComplianceGroup[]).flatMap((group) => group.items).find((item) => item.id === complianceRuleIds.meetingMinutes)!;
}

const vote = (user: SignedUp, resolutionId: number, choice: "yes" | "no") =>
  api().post(`/api/resolutions/${resolutionId}/vote`).set("Authorization", user.bearer).send({ vote: choice });

describe("approval by the chair's signature", () => {
  it("freezes the text with its SHA-256 and files a PDF of it in the library, counted by the compliance rule", async () => {
    const { fay, ann, obi, company, meetingId } = await knownRecord("Signed Minutes Ltd");
    const text = await circulated(ann, meetingId);
    expect((await minutesRule(fay, company.id)).status).toBe("pending");

    // Fay is the recorded chair: an admin who keeps the record may not sign in her place.
    expect((await approve(ann, meetingId, "chair")).body).toEqual({ message: notTheChairMessage });
    ctx.clock.set("2026-06-12T15:00:00.000Z");
    const response = await approve(fay, meetingId, "chair");
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const minutes = response.body as Minutes;
    expect(minutes).toMatchObject({
      status: "approved",
      text,
      approvedVia: "chair",
      approvedAt: "2026-06-12T15:00:00.000Z",
      approvedBy: { userId: fay.id, name: "Fay Founder" },
      sha256: sha256(text),
      resolutionId: null,
    });
    expect((await getMinutes(obi, meetingId)).body).toEqual(minutes);

    const [document] = await ctx.db.select().from(documents).where(eq(documents.id, minutes.documentId!));
    expect(document).toMatchObject({
      companyId: company.id,
      category: "Meeting Minutes",
      name: "Minutes of Q3 Board Meeting (10 Jun 2026).pdf",
      fileType: "application/pdf",
      uploadedBy: fay.id,
    });
    const pdf = await pdfText(obi, minutes.documentId!);
    for (const words of [
      "Minutes: Q3 Board Meeting",
      "Present: Bob Brown, Fay Founder, Obi Observer",
      "Present by video: Ann Adams",
      "Apologies: Cal Clark",
      "Absent: Dee Davis",
      "Guests: Gus Guest",
      "Approved at this meeting by show of hands: 3 yes, 1 no, 0 abstain",
      "Rejected by online vote on 10 Jun 2026: 1 yes, 2 no, 1 abstain",
      "Not decided",
      "Signed by Fay Founder, chair, on 12 Jun 2026",
      sha256(text),
    ]) {
      expect(pdf).toContain(words);
    }
    // The bytes are the document's now: off the sweep of abandoned uploads.
    expect(await ctx.db.select().from(fileSweep)).toEqual([]);
    const audit = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "minutes.approved"), eq(auditEvents.targetId, String(meetingId))));
    expect(audit).toEqual([expect.objectContaining({ actorId: fay.id, companyId: company.id, targetType: "meeting" })]);
    expect(audit[0]!.details).toMatchObject({ via: "chair", sha256: sha256(text), documentId: minutes.documentId });

    const rule = await minutesRule(fay, company.id);
    expect(rule.status).toBe("completed");
  });

  it("with no chair recorded anyone who keeps the record signs; a member who does not is refused", async () => {
    const { founder, admin, plain, meetingId } = await smallBoard("Chairless Ltd");
    await ctx.db.update(meetings).set({ chairId: null }).where(eq(meetings.documentId, meetingId));
    await circulated(founder, meetingId);
    expect((await approve(plain, meetingId, "chair")).body).toEqual({ message: deniedMessage("keepAnyMeetingRecord") });
    ctx.clock.set("2026-06-12T15:00:00.000Z");
    const signed = await approve(admin, meetingId, "chair");
    expect(signed.status).toBe(200);
    expect(signed.body.approvedBy).toEqual({ userId: admin.id, name: "Ada Admin" });
    // The signature does not pass the one who signed off as a chair the meeting never recorded.
    const pdf = await pdfText(admin, signed.body.documentId as number);
    expect(pdf).toContain("Signed by Ada Admin for the board on 12 Jun 2026 (no chair was recorded)");
    expect(pdf).not.toContain("chair, on");
  });

  it("answers 503 with Retry-After when the PDF's worker fails, and approves nothing; the next try does", async () => {
    const { founder, company, meetingId } = await smallBoard("PDF Down Ltd");
    const text = await circulated(founder, meetingId);
    const documentsBefore = await ctx.db.select({ id: documents.id }).from(documents).where(eq(documents.companyId, company.id));
    const timeoutMs = pdfWorkLimits.timeoutMs;
    // The job making the PDF has no time at all, so its worker is ended before it starts (a 1 ms cap let a fast
    // render win the race).
    pdfWorkLimits.timeoutMs = 0;
    let refused;
    try {
      refused = await approve(founder, meetingId, "chair");
    } finally {
      pdfWorkLimits.timeoutMs = timeoutMs;
    }
    expect(refused.status).toBe(503);
    expect(refused.headers["retry-after"]).toBe("10");
    expect(refused.body).toEqual({ message: minutesPdfFailedMessage });
    expect((await getMinutes(founder, meetingId)).body).toMatchObject({ status: "circulated", approvedAt: null, documentId: null, text });
    expect(await ctx.db.select({ id: documents.id }).from(documents).where(eq(documents.companyId, company.id))).toEqual(documentsBefore);
    expect(await ctx.db.select().from(fileSweep)).toEqual([]);
    const audit = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "minutes.approved"), eq(auditEvents.targetId, String(meetingId))));
    expect(audit).toEqual([]);

    const signed = await approve(founder, meetingId, "chair");
    expect(signed.status).toBe(200);
    expect(signed.body).toMatchObject({ status: "approved", sha256: sha256(text) });
  });
});

describe("approval by a resolution of the board", () => {
  it("proposes an Ordinary resolution quoting the SHA-256; the minutes are approved with its certificate once it passes", async () => {
    const { founder, admin, plain, observer, company, meetingId } = await smallBoard("Resolved Minutes Ltd");
    const text = await circulated(founder, meetingId);
    const proposed = await approve(admin, meetingId, "resolution");
    expect(proposed.status, JSON.stringify(proposed.body)).toBe(200);
    expect(proposed.body).toMatchObject({ status: "circulated", approvedAt: null, sha256: null });
    const resolutionId = proposed.body.resolutionId as number;

    const resolution = (await api().get(`/api/resolutions/${resolutionId}`).set("Authorization", plain.bearer)).body as ResolutionDetails;
    expect(resolution).toMatchObject({ title: "Approve the minutes of Board Meeting (10 Jun 2026)", type: "Ordinary", status: "pending" });
    expect(resolution.description).toContain(sha256(text));
    expect(new Date(resolution.deadline).getTime() - new Date(afterTheMeeting).getTime()).toBe(14 * 24 * 60 * 60 * 1000);

    // While it is before the board nothing about the minutes changes.
    expect((await approve(founder, meetingId, "resolution")).body).toEqual({ message: alreadyProposedMessage });
    expect((await approve(founder, meetingId, "chair")).body).toEqual({ message: alreadyProposedMessage });
    expect((await edit(founder, meetingId, "Changed")).body).toEqual({ message: beforeTheBoardMessage });
    expect((await getMinutes(observer, meetingId)).body.status).toBe("circulated");

    ctx.clock.set("2026-06-13T10:00:00.000Z");
    for (const voter of [founder, admin, plain]) expect((await vote(voter, resolutionId, "yes")).status).toBe(200);
    const decided = (await api().get(`/api/resolutions/${resolutionId}`).set("Authorization", plain.bearer)).body as ResolutionDetails;
    expect(decided.status).toBe("approved");

    ctx.clock.set("2026-06-14T10:00:00.000Z");
    const minutes = (await getMinutes(observer, meetingId)).body as Minutes;
    expect(minutes).toMatchObject({
      status: "approved",
      approvedVia: "resolution",
      approvedAt: decided.decidedAt,
      approvedBy: null,
      sha256: sha256(text),
      resolutionId,
    });
    const [stored] = await ctx.db.select().from(meetingMinutes).where(eq(meetingMinutes.meetingId, meetingId));
    expect(stored!.approvalCertificate).toEqual(decided.certificate);
    const pdf = await pdfText(observer, minutes.documentId!);
    expect(pdf).toContain(`Approved by resolution #${resolutionId} on 13 Jun 2026: Approved: 3 yes, 0 no, 0 abstain`);
    const [document] = await ctx.db.select().from(documents).where(eq(documents.id, minutes.documentId!));
    expect(document).toMatchObject({ companyId: company.id, category: "Meeting Minutes", uploadedBy: null });
    expect((await edit(founder, meetingId, "Changed")).status).toBe(409);
  });

  it("a rejected resolution lets the minutes go: they can be corrected and proposed again", async () => {
    const { founder, admin, plain, meetingId } = await smallBoard("Rejected Minutes Ltd");
    await circulated(founder, meetingId);
    const first = (await approve(founder, meetingId, "resolution")).body.resolutionId as number;
    for (const voter of [founder, admin, plain]) expect((await vote(voter, first, "no")).status).toBe(200);

    const minutes = (await getMinutes(plain, meetingId)).body as Minutes;
    expect(minutes).toMatchObject({ status: "circulated", resolutionId: null, approvedAt: null, documentId: null });
    expect((await edit(founder, meetingId, "# Minutes\n\nCorrected.")).status).toBe(200);
    const again = await approve(founder, meetingId, "resolution");
    expect(again.status).toBe(200);
    expect(again.body.resolutionId).not.toBe(first);
  });

  it("a show of hands in a meeting approves them at once: the minutes are frozen before anyone reads them", async () => {
    const { founder, admin, plain, meetingId } = await smallBoard("Hands Up Minutes Ltd");
    const text = await circulated(founder, meetingId);
    const resolutionId = (await approve(founder, meetingId, "resolution")).body.resolutionId as number;
    const hands = await api()
      .post(`/api/resolutions/${resolutionId}/meeting-vote`)
      .set("Authorization", founder.bearer)
      .send({ meetingId, votes: [founder, admin, plain].map((voter) => ({ userId: voter.id, vote: "yes" })) });
    expect(hands.status, JSON.stringify(hands.body)).toBe(200);
    expect(hands.body.status).toBe("approved");

    const [stored] = await ctx.db.select().from(meetingMinutes).where(eq(meetingMinutes.meetingId, meetingId));
    expect(stored).toMatchObject({ status: "approved", approvedVia: "resolution", sha256: sha256(text), resolutionId });
    expect(stored!.approvalCertificate).toMatchObject({ meetingId, yes: 3 });
    expect(stored!.documentId).not.toBeNull();
  });

  it("a decided approval that cannot be frozen (storage down) never fails a read: the minutes wait, the next try freezes them", async () => {
    const { founder, admin, plain, observer, meetingId } = await smallBoard("Storage Down Ltd");
    const text = await circulated(founder, meetingId);
    const resolutionId = (await approve(founder, meetingId, "resolution")).body.resolutionId as number;
    for (const voter of [founder, admin, plain]) expect((await vote(voter, resolutionId, "yes")).status).toBe(200);

    // Files go to an S3 service that refuses every connection, so the PDF cannot be stored.
    const key = "ACCESS:SECRET";
    await ctx.db.insert(platformServices).values({
      serviceName: "Storage",
      serviceKeyEncrypted: encryptSecret(key, ctx.deps.appSecret),
      serviceKeyPreview: key.slice(0, 8),
      serviceUrl: `http://127.0.0.1:${await closedPort()}/minutes`,
      isEnabled: true,
    });
    try {
      const read = await getMinutes(observer, meetingId);
      expect(read.status, JSON.stringify(read.body)).toBe(200);
      expect(read.body).toMatchObject({ status: "circulated", resolutionId, approvedAt: null, documentId: null, text });
      expect(ctx.logs.some((line) => line.includes("minutes approval could not be settled"))).toBe(true);
      const edited = await edit(founder, meetingId, "Changed");
      expect(edited.body).toEqual({ message: beforeTheBoardMessage });
    } finally {
      await ctx.db.delete(platformServices).where(eq(platformServices.serviceName, "Storage"));
    }
    expect((await getMinutes(observer, meetingId)).body).toMatchObject({ status: "approved", resolutionId, sha256: sha256(text) });
  });

  it("is settled without a read: by resolution, or for every company at once (the sweep)", async () => {
    const one = await smallBoard("Swept One Ltd");
    const two = await smallBoard("Swept Two Ltd");
    const proposals: number[] = [];
    for (const board of [one, two]) {
      await circulated(board.founder, board.meetingId);
      const resolutionId = (await approve(board.founder, board.meetingId, "resolution")).body.resolutionId as number;
      for (const voter of [board.founder, board.admin, board.plain]) await vote(voter, resolutionId, "yes");
      proposals.push(resolutionId);
    }
    const statusOf = async (meetingId: number) =>
      (await ctx.db.select({ status: meetingMinutes.status }).from(meetingMinutes).where(eq(meetingMinutes.meetingId, meetingId)))[0]!
        .status;
    expect(await settleMinutesApproval(ctx.deps, { resolutionId: proposals[0]! })).toBe(1);
    expect(await statusOf(one.meetingId)).toBe("approved");
    expect(await statusOf(two.meetingId)).toBe("circulated");
    expect(await settleMinutesApproval(ctx.deps, "all")).toBe(1);
    expect(await statusOf(two.meetingId)).toBe("approved");
    // Nothing left to settle: one query.
    expect(await ctx.countQueries(() => settleMinutesApproval(ctx.deps, "all"))).toBe(1);
  });
});
