// The answers' schemas of second factors, apart from second-factor.ts so the sign-in screen does not load them.
import { answer, answerSchemaFor } from "./answer";
import { authResponseSchema } from "./auth-schemas";
import {
  secondFactorMethods,
  type Passkey,
  type PasskeyOptions,
  type RecoveryCodes,
  type TotpSetup,
  type TotpStatus,
} from "./second-factor";

export const secondFactorChallengeSchema = answer.object({
  secondFactorRequired: answer.literal(true),
  challenge: answer.string(),
  methods: answer.array(answer.enum(secondFactorMethods)),
});

export const loginAnswerSchema = answer.union([authResponseSchema, secondFactorChallengeSchema]);

export const totpSetupSchema = answerSchemaFor<TotpSetup>()(
  answer.object({ secret: answer.string(), otpauthUrl: answer.string(), qrSvg: answer.string() }),
);
export const totpStatusSchema = answerSchemaFor<TotpStatus>()(answer.object({ enabled: answer.boolean() }));
export const recoveryCodesSchema = answerSchemaFor<RecoveryCodes>()(answer.object({ recoveryCodes: answer.array(answer.string()) }));
export const passkeySchema = answerSchemaFor<Passkey>()(
  answer.object({ id: answer.number().int(), name: answer.string(), createdAt: answer.string(), lastUsedAt: answer.string().nullable() }),
);
export const passkeyOptionsSchema = answerSchemaFor<PasskeyOptions>()(
  answer.object({ challenge: answer.string(), options: answer.record(answer.string(), answer.unknown()) }),
);
