// A new resolution: always pending, its deadline in the future, its documents the company's own.
import { and, eq, inArray, ne } from "drizzle-orm";
import { displayName } from "../../../../shared/people";
import { meetingCategory } from "../../../../shared/meeting-model";
import type { Resolution } from "../../../../shared/resolutions";
import { defaultWrittenRule, writtenRuleWords, type WrittenRule } from "../../../../shared/written-resolutions";
import type { ServiceDeps } from "../../app-deps";
import { formatUtc } from "../../clock";
import { textSha256 } from "../../crypto/text-hash";
import { recordAudit } from "../../db/audit";
import type { Queryable } from "../../db/client";
import { companies, documents, memberships, resolutionDocuments, resolutions } from "../../db/schema";
import { HttpError } from "../../http/errors";
import type { TenantContext } from "../../http/request-context";
import { notADraftMeeting } from "../meetings/meetings.service";
import { notify } from "../notifications/notifications.service";
import { mayVote } from "./eligible-voters";
import type { ResolutionRow } from "./resolution-decision";
import { resolutionRow, toResolution } from "./resolutions-read.service";

type Deps = ServiceDeps<"db" | "clock">;
const day = 24 * 60 * 60 * 1000;

/**
 * What a written resolution takes from its company when proposed: the board's rule as it stands now (kept with it,
 * whatever the setting becomes), its lapse that many days on, and its text's hash. Its vote type is the rule's
 * nearest (never used to decide it).
 */
async function writtenProposal(db: Queryable, companyId: number, text: string, now: Date) {
  const [company] = await db
    .select({
      kind: companies.writtenResolutionRule,
      lapseDays: companies.writtenLapseDays,
      allowWithdrawal: companies.writtenAllowWithdrawal,
      meetingDemandPercent: companies.writtenMeetingDemandPercent,
    })
    .from(companies)
    .where(eq(companies.id, companyId));
  const rule: WrittenRule = company ?? defaultWrittenRule;
  const type: ResolutionRow["type"] = rule.kind === "unanimous" ? "Unanimous" : "Ordinary";
  return { rule, type, deadline: new Date(now.getTime() + rule.lapseDays * day), textSha256: textSha256(text) };
}

/**
 * `POST /api/resolutions`: always pending, a deadline in the future (a written one's lapse), documents of the company;
 * notifies the other voters (of a written one, every other eligible director, by the bell and by e-mail).
 */
export async function createResolution(
  deps: Deps,
  tenant: TenantContext,
  input: {
    title: string;
    description: string;
    procedure: ResolutionRow["procedure"];
    type?: ResolutionRow["type"];
    deadline?: Date;
    documentIds: number[];
  },
): Promise<Resolution> {
  const now = deps.clock.now();
  const companyId = tenant.company.id;
  const written = input.procedure === "written" ? await writtenProposal(deps.db, companyId, input.description, now) : null;
  const type = written?.type ?? input.type;
  const deadline = written?.deadline ?? input.deadline;
  // The request's schema requires a vote's type and deadline.
  if (!type || !deadline) throw new Error("a vote without its type or deadline");
  if (!written && deadline.getTime() <= now.getTime()) {
    throw new HttpError(400, "The deadline must be in the future", {}, [
      { path: "deadline", message: "The deadline must be in the future" },
    ]);
  }
  const id = await deps.db.transaction(async (tx) => {
    if (input.documentIds.length > 0) {
      const found = await tx
        .select({ id: documents.id })
        .from(documents)
        .where(
          and(
            inArray(documents.id, input.documentIds),
            eq(documents.companyId, companyId),
            ne(documents.category, meetingCategory),
            notADraftMeeting(documents.id),
          ),
        );
      if (found.length !== input.documentIds.length) {
        const message = "Documents must be documents of this company";
        throw new HttpError(400, message, {}, [{ path: "documentIds", message }]);
      }
    }
    const [created] = await tx
      .insert(resolutions)
      .values({
        companyId,
        title: input.title,
        description: input.description,
        procedure: input.procedure,
        type,
        status: "pending",
        deadline,
        textSha256: written?.textSha256 ?? null,
        writtenRule: written?.rule ?? null,
        createdBy: tenant.user.id,
        createdAt: now,
      })
      .returning({ id: resolutions.id });
    if (!created) throw new Error("resolution insert returned nothing");
    if (input.documentIds.length > 0) {
      await tx.insert(resolutionDocuments).values(input.documentIds.map((documentId) => ({ resolutionId: created.id, documentId })));
    }
    await recordAudit(tx, deps.clock, {
      actorId: tenant.user.id,
      companyId,
      action: "resolution.created",
      targetType: "resolution",
      targetId: created.id,
      details: written
        ? {
            procedure: "written",
            textSha256: written.textSha256,
            rule: written.rule,
            lapsesAt: deadline.toISOString(),
            documentIds: input.documentIds,
          }
        : { type, deadline: deadline.toISOString(), documentIds: input.documentIds },
    });
    const voters = await tx
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(mayVote({ id: created.id, companyId }), ne(memberships.userId, tenant.user.id)));
    await notify(tx, {
      kind: "resolutionCreated",
      companyId,
      recipients: voters.map(({ userId }) => userId),
      title: written ? `Written resolution to sign: ${input.title}` : `New resolution: ${input.title}`,
      body: written
        ? `${displayName(tenant.user)} asks for your signature on a written resolution by ${formatUtc(deadline)} (${writtenRuleWords(written.rule)}).`
        : `${displayName(tenant.user)} asks for your vote (${type}) by ${deadline.toISOString().slice(0, 10)}.`,
      link: `/resolutions/${created.id}`,
      at: deps.clock.now(),
    });
    return created.id;
  });
  return toResolution(await resolutionRow(deps.db, id));
}
