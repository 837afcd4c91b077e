import { and, desc, eq, isNotNull, notInArray } from "drizzle-orm";
import { totpCodeMessage, totpCodePattern } from "../../../../shared/second-factor";
import type { SignatureMethod } from "../../../../shared/written-resolutions";
import type { ServiceDeps } from "../../app-deps";
import type { Clock } from "../../clock";
import { verifyPassword } from "../../crypto/passwords";
import { newLinkToken } from "../../crypto/link-token";
import { statementChallenge } from "../../crypto/text-hash";
import type { Queryable } from "../../db/client";
import { authChallenges, passkeys, totpFactors } from "../../db/schema";
import { HttpError, badRequest, conflict } from "../../http/errors";
import type { UserRow } from "../../http/request-context";
import { attemptKeyOf, forgetAttempt, recordAttemptWithinLimit } from "./auth.service";
import { advancePasskeyCounter, verifyPasskeyAnswer } from "./passkey-login.service";
import { relyingParty, webAuthn } from "./passkeys.service";
import { WrongCode, assertSecondStepOpen, issueChallenge, recordSecondFactorFailure, takeChallenge } from "./second-factor-state";
import { spendTotpCode } from "./second-step-codes";

// The proofs behind a signature on a written resolution: a passkey's assertion over a statement that carries a server
// nonce (the nonce is a single-use challenge of the signer's, its WebAuthn challenge the statement's hash), or the
// password again with the authenticator code where the account has an app. What is signed is the resolutions
// feature's business; whose proof it is and whether it holds is this one's.

type ProofDeps = ServiceDeps<"db" | "clock" | "mail" | "appSecret">;
type PasskeyRow = typeof passkeys.$inferSelect;

const passkeyFailedMessage = "The passkey could not sign this statement. Please try again.";
const wrongProofMessage = "The password or the code is wrong";
const codeNeededMessage = "Enter a code from your authenticator app as well";
const passkeyNeededMessage = "Your account's second factor is a passkey: sign with your passkey instead.";

/** Open signing challenges a user may hold at once (one per decision on a few resolutions). */
export const openSigningChallengesPerUser = 5;

/** A nonce for a statement signed with the password: random, never a challenge anyone can answer. */
export const passwordSigningNonce = (): string => newLinkToken().token;

/**
 * Opens a signing challenge of the user's: a fresh nonce (stored only as its digest, live 5 minutes, spent at its
 * first use), the statement `statementOf(nonce)`, and the WebAuthn request options over the user's passkeys whose
 * challenge is the statement's hash, with the user verified. A user without a passkey is answered 409.
 */
export async function openSigningChallenge(
  deps: ProofDeps,
  userId: number,
  statementOf: (nonce: string) => string,
): Promise<{ statement: string; challenge: string; options: Record<string, unknown> }> {
  const { db, clock } = deps;
  const owned = await db
    .select({ credentialId: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, userId));
  if (owned.length === 0) throw conflict("You have no passkey: sign with your password instead.");
  const made = newLinkToken();
  const nonce = made.token;
  const statement = statementOf(nonce);
  const challenge = statementChallenge(statement);
  const { generateAuthenticationOptions } = await webAuthn();
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(deps).rpID,
    // The signature stands for the director's own act: the authenticator must verify its user (a PIN, a fingerprint).
    userVerification: "required",
    allowCredentials: owned.map((row) => ({ id: row.credentialId, transports: row.transports ?? undefined })),
    // Bytes, not text: the library would otherwise hash nothing and encode the text's own characters.
    challenge: new Uint8Array(Buffer.from(challenge, "base64url")),
  });
  // A user holds a few open signing challenges at most: asking again drops the oldest, so rows stay bounded.
  const kept = db
    .select({ id: authChallenges.id })
    .from(authChallenges)
    .where(and(eq(authChallenges.userId, userId), eq(authChallenges.purpose, "written-signature")))
    .orderBy(desc(authChallenges.id))
    .limit(openSigningChallengesPerUser - 1);
  await db
    .delete(authChallenges)
    .where(and(eq(authChallenges.userId, userId), eq(authChallenges.purpose, "written-signature"), notInArray(authChallenges.id, kept)));
  await issueChallenge(db, clock, { purpose: "written-signature", userId, webauthnChallenge: challenge }, made);
  return { statement, challenge, options: options as unknown as Record<string, unknown> };
}

/**
 * Spends the signing challenge of this nonce (deleted at once, whatever comes next) and answers whether it was live,
 * the user's, and issued for exactly this statement.
 */
export async function takeSigningChallenge(
  db: Queryable,
  clock: Clock,
  userId: number,
  nonce: string,
  statement: string,
): Promise<boolean> {
  const row = await takeChallenge(db, clock, nonce, "written-signature");
  return row !== null && row.userId === userId && row.webauthnChallenge === statementChallenge(statement);
}

/** A verified passkey assertion over a statement, and what the signature keeps of it (base64url). */
export interface PasskeyEvidence {
  passkey: PasskeyRow;
  newCounter: number;
  credentialId: string;
  publicKey: string;
  authenticatorData: string;
  clientDataJSON: string;
  signature: string;
}

/**
 * Verifies a passkey assertion of the user's over the statement's challenge, with the user verified; any other
 * passkey, challenge or answer is a 400. The counter is advanced by `spendPasskey`, in the signature's transaction.
 */
export async function verifySigningPasskey(
  deps: ProofDeps,
  userId: number,
  statement: string,
  response: { id: string; response: Record<string, unknown> } & Record<string, unknown>,
): Promise<PasskeyEvidence> {
  const [passkey] = await deps.db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.credentialId, response.id), eq(passkeys.userId, userId)));
  if (!passkey) throw badRequest(passkeyFailedMessage);
  const newCounter = await verifyPasskeyAnswer(deps, statementChallenge(statement), passkey, response as never, true, () =>
    badRequest(passkeyFailedMessage),
  );
  const field = (name: string) => {
    const value = response.response[name];
    return typeof value === "string" ? value : "";
  };
  return {
    passkey,
    newCounter,
    credentialId: passkey.credentialId,
    publicKey: Buffer.from(passkey.publicKey).toString("base64url"),
    authenticatorData: field("authenticatorData"),
    clientDataJSON: field("clientDataJSON"),
    signature: field("signature"),
  };
}

/** Moves the passkey's counter on in the signature's transaction: of two answers racing with one counter, one wins. */
export async function spendPasskey(tx: Queryable, deps: ProofDeps, evidence: PasskeyEvidence): Promise<void> {
  if (!(await advancePasskeyCounter(tx, deps.clock, evidence.passkey, evidence.newCounter))) throw badRequest(passkeyFailedMessage);
}

/**
 * Checks the password, and a current code of the authenticator app where the account has one, as
 * re-authentication does: wrong ones count with the sign-in limits, wrong codes towards the lock of the second step,
 * a code is spent once. An account whose only second factor is a passkey must sign with it (400). Answers the method.
 */
export async function checkSigningPassword(
  deps: ProofDeps,
  user: UserRow,
  input: { password: string; code?: string },
  ip: string,
): Promise<SignatureMethod> {
  const { db, clock } = deps;
  const [app] = await db
    .select({ userId: totpFactors.userId })
    .from(totpFactors)
    .where(and(eq(totpFactors.userId, user.id), isNotNull(totpFactors.confirmedAt)));
  if (!app) {
    const [passkey] = await db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, user.id)).limit(1);
    if (passkey) throw new HttpError(400, passkeyNeededMessage, {}, [{ path: "password", message: passkeyNeededMessage }]);
  }
  const attemptId = await recordAttemptWithinLimit(db, clock, attemptKeyOf(user), ip);
  if (!(await verifyPassword(user.passwordHash, input.password))) {
    throw new HttpError(400, wrongProofMessage, {}, [{ path: "password", message: wrongProofMessage }]);
  }
  const code = input.code?.trim() ?? "";
  if (app) {
    if (code === "") throw new HttpError(400, codeNeededMessage, {}, [{ path: "code", message: codeNeededMessage }]);
    // A signature is recorded as password and app code: a recovery code (for regaining the account) does not sign.
    if (!totpCodePattern.test(code)) throw new HttpError(400, totpCodeMessage, {}, [{ path: "code", message: totpCodeMessage }]);
    assertSecondStepOpen(clock, user);
    try {
      await db.transaction(async (tx) => {
        if (!(await spendTotpCode(tx, deps, user.id, code))) throw new WrongCode();
      });
    } catch (error) {
      if (!(error instanceof WrongCode)) throw error;
      await recordSecondFactorFailure(db, clock, user.id);
      throw new HttpError(400, wrongProofMessage, {}, [{ path: "code", message: wrongProofMessage }]);
    }
  }
  await forgetAttempt(db, attemptId);
  return app ? "password+totp" : "password";
}
