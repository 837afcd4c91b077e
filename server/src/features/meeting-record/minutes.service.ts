// A meeting's minutes: drafted from the record (none → draft), edited, circulated to the participants (→ circulated)
// and approved by the chair or a resolution (→ approved), after which nothing about them changes.
import { eq } from "drizzle-orm";
import { noMinutes, type Minutes, type MinutesDraft } from "../../../../shared/meeting-record";
import { displayName } from "../../../../shared/people";
import { limits } from "../../../../shared/input";
import type { AppDeps, ServiceDeps } from "../../app-deps";
import { formatUtcDate } from "../../clock";
import type { Database, Transaction } from "../../db/client";
import { meetingMinutes, meetingParticipants, users } from "../../db/schema";
import { nameColumns } from "../../db/columns";
import { conflict, forbidden } from "../../http/errors";
import type { TenantContext } from "../../http/request-context";
import { notify } from "../notifications/notifications.service";
import { createResolution } from "../resolutions/resolution-create.service";
import { keepsRecordOf, recordedMeeting, requireRecordKeeper, type RecordedMeeting } from "./attendance.data";
import { cancelledRecordMessage } from "./attendance.service";
import { textSha256 } from "../../crypto/text-hash";
import { freezeMinutes, settleMinutesApproval, startMinutesSweep, type ApprovalDeps } from "./minutes-approval";
import { draftMinutesText } from "./minutes-draft";
import { factsOf } from "./minutes-facts";
import { improveMinutes } from "./minutes-improve";
import { readMinutesRecord } from "./minutes-record.data";

export { settleMinutesApproval, startMinutesSweep };

type MinutesDeps = ApprovalDeps & ServiceDeps<"ai" | "logger" | "limits" | "outbound">;

export const approvedMinutesMessage = "The minutes are approved: nothing about them changes";
export const beforeTheBoardMessage = "The minutes are before the board for approval: withdraw nothing, change nothing";
export const noMinutesMessage = "There are no minutes yet: draft them first";
export const circulatedMessage = "The minutes have been circulated: edit them, or approve them";
export const notCirculatedMessage = "The minutes must be circulated before they are approved";
export const alreadyProposedMessage = "The minutes are already before the board as a resolution";
export const notTheChairMessage = "Only the meeting's chair can sign its minutes";

/** Approval by resolution gives the board this long to vote. */
const approvalVotingMs = 14 * 24 * 60 * 60 * 1000;

/** The meeting, when the caller keeps its record (founder, admin, or its creator), else 403; cancelled: 409. */
async function keptMeeting(db: Database, tenant: TenantContext, meetingId: number): Promise<RecordedMeeting> {
  const meeting = await recordedMeeting(db, meetingId);
  requireRecordKeeper(meeting, { userId: tenant.user.id, role: tenant.role });
  if (meeting.status === "cancelled") throw conflict(cancelledRecordMessage);
  return meeting;
}

/**
 * Settles a decided approval before the minutes are read or written. A failure to freeze them (the PDF, the storage)
 * never fails the request: the board's decision stands, the minutes stay as they are, and the sweep tries again.
 */
async function settleBeforeUse(deps: MinutesDeps, meetingId: number): Promise<void> {
  try {
    await settleMinutesApproval(deps, { meetingId });
  } catch (error) {
    deps.logger.warn({ err: error, meetingId }, "minutes approval could not be settled; the sweep retries");
  }
}

/** The minutes on the wire; a draft's text only for those who keep the record. */
async function readMinutes(db: Database, meetingId: number, keeper: boolean): Promise<Minutes> {
  const [row] = await db
    .select({
      minutes: meetingMinutes,
      approver: { id: users.id, ...nameColumns },
    })
    .from(meetingMinutes)
    .leftJoin(users, eq(users.id, meetingMinutes.approvedBy))
    .where(eq(meetingMinutes.meetingId, meetingId));
  if (!row) return { ...noMinutes };
  const { minutes, approver } = row;
  return {
    status: minutes.status,
    text: minutes.status === "draft" && !keeper ? null : minutes.text,
    updatedAt: minutes.updatedAt.toISOString(),
    circulatedAt: minutes.circulatedAt?.toISOString() ?? null,
    approvedAt: minutes.approvedAt?.toISOString() ?? null,
    approvedVia: minutes.approvedVia,
    approvedBy: approver ? { userId: approver.id, name: displayName(approver) } : null,
    sha256: minutes.sha256,
    documentId: minutes.documentId,
    resolutionId: minutes.resolutionId,
  };
}

/** `GET /api/meetings/:id/minutes` (any member): an approval decided since is settled first. */
export async function getMinutes(deps: MinutesDeps, tenant: TenantContext, meetingId: number): Promise<Minutes> {
  await settleBeforeUse(deps, meetingId);
  const meeting = await recordedMeeting(deps.db, meetingId);
  return readMinutes(deps.db, meetingId, keepsRecordOf(meeting, { userId: tenant.user.id, role: tenant.role }));
}

/**
 * `POST /api/meetings/:id/minutes/draft`: the minutes written again from the record, replacing the draft's text;
 * with `improve`, reworded by the AI when it keeps every fact. Only while there are none or a draft (409 after).
 */
export async function draftMinutes(
  deps: MinutesDeps,
  tenant: TenantContext,
  meetingId: number,
  input: { improve?: boolean },
  logger: AppDeps["logger"],
): Promise<MinutesDraft> {
  await keptMeeting(deps.db, tenant, meetingId);
  const refuseIfMoved = (status: string | undefined) => {
    if (status === "approved") throw conflict(approvedMinutesMessage);
    if (status === "circulated") throw conflict(circulatedMessage);
  };
  const [before] = await deps.db
    .select({ status: meetingMinutes.status })
    .from(meetingMinutes)
    .where(eq(meetingMinutes.meetingId, meetingId));
  refuseIfMoved(before?.status);

  const record = await readMinutesRecord(deps.db, meetingId);
  const draft = draftMinutesText(record);
  const { text, improvement } = input.improve
    ? await improveMinutes(deps, { companyId: tenant.company.id, userId: tenant.user.id }, draft, factsOf(record), logger)
    : { text: draft, improvement: null };

  const now = deps.clock.now();
  // Written only over a draft: minutes circulated while the AI was answering are never put back to draft.
  const [saved] = await deps.db
    .insert(meetingMinutes)
    .values({ meetingId, status: "draft", text, updatedAt: now, updatedBy: tenant.user.id })
    .onConflictDoUpdate({
      target: meetingMinutes.meetingId,
      set: { text, updatedAt: now, updatedBy: tenant.user.id },
      setWhere: eq(meetingMinutes.status, "draft"),
    })
    .returning({ status: meetingMinutes.status });
  if (!saved) {
    const [after] = await deps.db
      .select({ status: meetingMinutes.status })
      .from(meetingMinutes)
      .where(eq(meetingMinutes.meetingId, meetingId));
    refuseIfMoved(after?.status);
  }
  return { ...(await readMinutes(deps.db, meetingId, true)), improvement };
}

/**
 * The minutes' row under its lock, for a write: 409 when there are none, when they are approved, or while a
 * resolution to approve them is before the board.
 */
async function lockForWrite(tx: Transaction, meetingId: number) {
  const [row] = await tx.select().from(meetingMinutes).where(eq(meetingMinutes.meetingId, meetingId)).for("update");
  if (!row) throw conflict(noMinutesMessage);
  if (row.status === "approved") throw conflict(approvedMinutesMessage);
  if (row.resolutionId !== null) throw conflict(beforeTheBoardMessage);
  return row;
}

/** `PUT /api/meetings/:id/minutes`: the text of draft or circulated minutes, as the secretary wrote it. */
export async function editMinutes(deps: MinutesDeps, tenant: TenantContext, meetingId: number, text: string): Promise<Minutes> {
  await keptMeeting(deps.db, tenant, meetingId);
  // A rejected resolution lets the minutes go first, so they can be corrected.
  await settleBeforeUse(deps, meetingId);
  await deps.db.transaction(async (tx) => {
    await lockForWrite(tx, meetingId);
    await tx
      .update(meetingMinutes)
      .set({ text, updatedAt: deps.clock.now(), updatedBy: tenant.user.id })
      .where(eq(meetingMinutes.meetingId, meetingId));
  });
  return readMinutes(deps.db, meetingId, true);
}

/** `POST /api/meetings/:id/minutes/circulate`: draft → circulated; every other participant is told. */
export async function circulateMinutes(deps: MinutesDeps, tenant: TenantContext, meetingId: number): Promise<Minutes> {
  const meeting = await keptMeeting(deps.db, tenant, meetingId);
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const row = await lockForWrite(tx, meetingId);
    if (row.status !== "draft") throw conflict("The minutes are already circulated");
    await tx.update(meetingMinutes).set({ status: "circulated", circulatedAt: now }).where(eq(meetingMinutes.meetingId, meetingId));
    const participants = await tx
      .select({ userId: meetingParticipants.userId })
      .from(meetingParticipants)
      .where(eq(meetingParticipants.meetingId, meetingId));
    await notify(tx, {
      kind: "minutesCirculated",
      companyId: meeting.companyId,
      recipients: participants.map((participant) => participant.userId).filter((userId) => userId !== tenant.user.id),
      title: `Minutes to read: ${meeting.title}`,
      body: `${displayName(tenant.user)} circulated the minutes of "${meeting.title}" (${formatUtcDate(meeting.startsAt)}) for approval.`,
      link: `/meetings/${meetingId}`,
      at: now,
    });
  });
  return readMinutes(deps.db, meetingId, true);
}

/** "Approve the minutes of <title> (<date>)", the title cut so the whole stays a resolution's title. */
function approvalTitle(meeting: RecordedMeeting): string {
  const date = ` (${formatUtcDate(meeting.startsAt)})`;
  const prefix = "Approve the minutes of ";
  const room = limits.title - prefix.length - date.length;
  const title = meeting.title.length > room ? `${meeting.title.slice(0, room - 1)}…` : meeting.title;
  return `${prefix}${title}${date}`;
}

/**
 * `POST /api/meetings/:id/minutes/approve`: circulated minutes only (409 otherwise). By the chair: the recorded chair
 * signs (when none is recorded, anyone who keeps the record), and the minutes are frozen at once. By resolution: an
 * Ordinary resolution quoting the text's SHA-256 is put to the board, and the minutes wait for its decision.
 */
export async function approveMinutes(
  deps: MinutesDeps,
  tenant: TenantContext,
  meetingId: number,
  via: "chair" | "resolution",
): Promise<Minutes> {
  const meeting = await recordedMeeting(deps.db, meetingId);
  const keeper = keepsRecordOf(meeting, { userId: tenant.user.id, role: tenant.role });
  if (via === "chair" && meeting.chairId !== null) {
    if (meeting.chairId !== tenant.user.id) throw forbidden(notTheChairMessage);
  } else {
    requireRecordKeeper(meeting, { userId: tenant.user.id, role: tenant.role });
  }
  // Minutes drafted before a meeting that was then called off record nothing that happened.
  if (meeting.status === "cancelled") throw conflict(cancelledRecordMessage);
  await settleBeforeUse(deps, meetingId);
  const [row] = await deps.db.select().from(meetingMinutes).where(eq(meetingMinutes.meetingId, meetingId));
  if (row?.status === "approved") throw conflict(approvedMinutesMessage);
  if (row?.status !== "circulated") throw conflict(notCirculatedMessage);
  if (row.resolutionId !== null) throw conflict(alreadyProposedMessage);

  if (via === "resolution") {
    await deps.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(meetingMinutes).where(eq(meetingMinutes.meetingId, meetingId)).for("update");
      if (locked?.status !== "circulated" || locked.resolutionId !== null) throw conflict(alreadyProposedMessage);
      const now = deps.clock.now();
      const circulated = locked.circulatedAt ? `, as circulated on ${formatUtcDate(locked.circulatedAt)}` : "";
      // The resolution is written in this transaction (its own becomes a savepoint), so it exists only with the link.
      const resolution = await createResolution({ db: tx, clock: deps.clock }, tenant, {
        title: approvalTitle(meeting),
        description: `That the minutes of "${meeting.title}", held on ${formatUtcDate(meeting.startsAt)}${circulated}, be approved as a true record of the meeting. SHA-256 of the minutes' text: ${textSha256(locked.text)}.`,
        procedure: "vote",
        type: "Ordinary",
        deadline: new Date(now.getTime() + approvalVotingMs),
        documentIds: [],
      });
      await tx.update(meetingMinutes).set({ resolutionId: resolution.id }).where(eq(meetingMinutes.meetingId, meetingId));
    });
    return readMinutes(deps.db, meetingId, keeper);
  }

  const now = deps.clock.now();
  const frozen = await freezeMinutes(
    deps,
    {
      meetingId,
      companyId: meeting.companyId,
      company: tenant.company.name,
      meetingTitle: meeting.title,
      meetingStart: meeting.startsAt,
      text: row.text,
      resolutionId: null,
    },
    {
      via: "chair",
      at: now,
      approver: { id: tenant.user.id, name: displayName(tenant.user) },
      line:
        meeting.chairId === null
          ? `Signed by ${displayName(tenant.user)} for the board on ${formatUtcDate(now)} (no chair was recorded)`
          : `Signed by ${displayName(tenant.user)}, chair, on ${formatUtcDate(now)}`,
      certificate: null,
    },
  );
  // Edited, approved or proposed by someone else since they were read: the caller looks again.
  if (!frozen) throw conflict("The minutes changed while they were being approved: read them again");
  return readMinutes(deps.db, meetingId, keeper);
}
