// The answers' schemas of identity and invitations, apart from identity.ts so the pages a link opens do not load them.
import { answer, answerSchemaFor } from "./answer";
import { invitationStatuses, type InvitationAccepted, type InvitationPreview, type MyInvitation, type ReauthAnswer } from "./identity";
import { companyRoles } from "./roles";

const role = answer.enum(companyRoles);

export const reauthAnswerSchema = answerSchemaFor<ReauthAnswer>()(answer.object({ until: answer.string() }));

export const invitationPreviewSchema = answerSchemaFor<InvitationPreview>()(
  answer.object({
    companyName: answer.string(),
    role,
    inviterName: answer.string(),
    email: answer.string(),
    expiresAt: answer.string(),
    status: answer.enum(invitationStatuses),
  }),
);

export const invitationAcceptedSchema = answerSchemaFor<InvitationAccepted>()(answer.object({ companyId: answer.number().int(), role }));

export const myInvitationSchema = answerSchemaFor<MyInvitation>()(
  answer.object({
    id: answer.number().int(),
    companyName: answer.string(),
    role,
    inviterName: answer.string(),
    expiresAt: answer.string(),
  }),
);

/** 202 answers that say only that a mail may be on its way, whatever the address. */
export const messageAnswerSchema = answer.object({ message: answer.string() });
