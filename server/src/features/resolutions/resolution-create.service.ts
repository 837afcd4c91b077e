// A new resolution: always pending, its deadline in the future, its documents the company's own.
import { and, eq, inArray, ne } from "drizzle-orm";
import { displayName } from "../../../../shared/people";
import { meetingCategory } from "../../../../shared/meeting-model";
import type { Resolution } from "../../../../shared/resolutions";
import type { ServiceDeps } from "../../app-deps";
import { recordAudit } from "../../db/audit";
import { documents, memberships, resolutionDocuments, resolutions } from "../../db/schema";
import { HttpError, conflict } from "../../http/errors";
import type { TenantContext } from "../../http/request-context";
import { notADraftMeeting } from "../meetings/meetings.service";
import { notify } from "../notifications/notifications.service";
import { mayVote } from "./eligible-voters";
import type { ResolutionRow } from "./resolution-decision";
import { resolutionRow, toResolution } from "./resolutions-read.service";

type Deps = ServiceDeps<"db" | "clock">;

/** `POST /api/resolutions`: always pending, a deadline in the future, documents of the company; notifies the other voters. */
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
  const { type, deadline } = input;
  if (input.procedure !== "vote" || !type || !deadline) throw conflict("Written resolutions are not open yet");
  if (deadline.getTime() <= now.getTime()) {
    throw new HttpError(400, "The deadline must be in the future", {}, [
      { path: "deadline", message: "The deadline must be in the future" },
    ]);
  }
  const companyId = tenant.company.id;
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
        type: type,
        status: "pending",
        deadline: deadline,
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
      details: { type: type, deadline: deadline.toISOString(), documentIds: input.documentIds },
    });
    const voters = await tx
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(mayVote({ id: created.id, companyId }), ne(memberships.userId, tenant.user.id)));
    await notify(tx, {
      kind: "resolutionCreated",
      companyId,
      recipients: voters.map(({ userId }) => userId),
      title: `New resolution: ${input.title}`,
      body: `${displayName(tenant.user)} asks for your vote (${type}) by ${deadline.toISOString().slice(0, 10)}.`,
      link: `/resolutions/${created.id}`,
      at: deps.clock.now(),
    });
    return created.id;
  });
  return toResolution(await resolutionRow(deps.db, id));
}
