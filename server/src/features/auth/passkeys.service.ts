import { createHash } from "node:crypto";
import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import { and, asc, count, eq, gt } from "drizzle-orm";
import { passkeyLimits, type Passkey, type PasskeyOptions, type PasskeyRegisterInput } from "../../../../shared/second-factor";
import type { ServiceDeps } from "../../app-deps";
import { recordAudit } from "../../db/audit";
import { authChallenges, passkeys } from "../../db/schema";
import { HttpError, badRequest, conflict, isUniqueViolation, notFound } from "../../http/errors";
import type { UserRow } from "../../http/request-context";
import { defaultMailSettings } from "../../integrations/mailer";
import { issueChallenge, passedSecondFactor, refreshSecondFactorFlag, type FactorCaller } from "./second-factor-state";
import { tellAccountHolder } from "../notifications/outbox.service";

// Passkeys (WebAuthn): registering them, listing and removing them. Signing in with one is passkey-login.service.ts.
// The WebAuthn library checks the browser's answers; what is kept here is which challenge an answer may answer,
// and whose passkey it is.

export type PasskeyDeps = ServiceDeps<"db" | "clock" | "mail" | "limits">;

/**
 * The relying party is the app's own address (APP_URL): its host name is the RP ID the passkeys are bound to and
 * its origin the only one whose answers count. Behind a domain, APP_URL must be that domain, or no passkey verifies.
 */
export function relyingParty(deps: Pick<PasskeyDeps, "mail">): { rpName: string; rpID: string; origin: string } {
  const url = new URL((deps.mail ?? defaultMailSettings).appUrl);
  return { rpName: "Quorum", rpID: url.hostname, origin: url.origin };
}

const registrationFailed = "The passkey could not be registered. Please try again.";

type WebAuthnLibrary = typeof import("@simplewebauthn/server") & typeof import("@simplewebauthn/server/helpers");
let webAuthnLibrary: Promise<WebAuthnLibrary> | undefined;
/**
 * The WebAuthn library, loaded at the first passkey request: loading it (and the ASN.1 and crypto packages behind it)
 * costs about a fifth of a second of CPU, which every start of the server paid before its first answer.
 */
export function webAuthn(): Promise<WebAuthnLibrary> {
  webAuthnLibrary ??= Promise.all([import("@simplewebauthn/server"), import("@simplewebauthn/server/helpers")]).then(
    ([server, helpers]) => ({ ...server, ...helpers }),
  );
  return webAuthnLibrary;
}

/** The WebAuthn challenge an answer signed, read from its clientDataJSON; null when it cannot be read. */
async function answeredChallenge(response: { response: Record<string, unknown> }): Promise<string | null> {
  const clientDataJSON = response.response.clientDataJSON;
  if (typeof clientDataJSON !== "string") return null;
  const { decodeClientDataJSON } = await webAuthn();
  try {
    const challenge = decodeClientDataJSON(clientDataJSON).challenge;
    return typeof challenge === "string" && challenge.length > 0 && challenge.length <= 1024 ? challenge : null;
  } catch {
    return null;
  }
}

const toPasskey = (row: typeof passkeys.$inferSelect): Passkey => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

export async function listPasskeys({ db }: ServiceDeps<"db">, userId: number): Promise<Passkey[]> {
  const rows = await db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt), asc(passkeys.id));
  return rows.map(toPasskey);
}

/** The browser's options to create a passkey, its challenge kept for the caller for 5 minutes. */
export async function passkeyRegisterOptions(deps: PasskeyDeps, user: UserRow): Promise<PasskeyOptions> {
  const { db, clock } = deps;
  const existing = await db
    .select({ credentialId: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, user.id));
  if (existing.length >= passkeyLimits.perUser) throw conflict(`You already have ${passkeyLimits.perUser} passkeys: remove one first.`);
  const { rpName, rpID } = relyingParty(deps);
  const displayName = [user.firstName, user.lastName].filter(Boolean).join(" ");
  const { generateRegistrationOptions } = await webAuthn();
  const options = await generateRegistrationOptions({
    rpName,
    rpID,
    userName: user.username,
    userDisplayName: displayName || user.username,
    // An opaque handle, the same for every passkey of the account: its id, not its name or e-mail.
    userID: new TextEncoder().encode(`quorum-user-${user.id}`),
    attestationType: "none",
    excludeCredentials: existing.map((row) => ({ id: row.credentialId, transports: row.transports ?? undefined })),
    // A discoverable credential that verifies its user can sign in without a username or password.
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  });
  const challenge = await issueChallenge(db, clock, { purpose: "passkey-register", userId: user.id, webauthnChallenge: options.challenge });
  return { challenge, options: options as unknown as Record<string, unknown> };
}

/**
 * Registers the passkey the browser created. The answer names its challenge inside its signed client data: it must
 * be a live registration challenge of the caller, spent here whether the answer then verifies or not.
 */
export async function registerPasskey(deps: PasskeyDeps, caller: FactorCaller, input: PasskeyRegisterInput): Promise<Passkey> {
  const { db, clock } = deps;
  const userId = caller.user.id;
  const webauthnChallenge = await answeredChallenge(input.response);
  if (!webauthnChallenge) throw badRequest(registrationFailed);
  const [spent] = await db
    .delete(authChallenges)
    .where(
      and(
        eq(authChallenges.purpose, "passkey-register"),
        eq(authChallenges.userId, userId),
        eq(authChallenges.webauthnChallenge, webauthnChallenge),
        gt(authChallenges.expiresAt, clock.now()),
      ),
    )
    .returning({ id: authChallenges.id });
  if (!spent) throw badRequest("This passkey answers no registration in progress. Please try again.");

  const { rpID, origin } = relyingParty(deps);
  let credential;
  try {
    const { verifyRegistrationResponse } = await webAuthn();
    const verification = await verifyRegistrationResponse({
      response: input.response as unknown as RegistrationResponseJSON,
      expectedChallenge: webauthnChallenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    });
    if (!verification.verified) throw badRequest(registrationFailed);
    credential = verification.registrationInfo.credential;
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw badRequest(registrationFailed);
  }

  try {
    return await db.transaction(async (tx) => {
      const [{ value: held } = { value: 0 }] = await tx.select({ value: count() }).from(passkeys).where(eq(passkeys.userId, userId));
      if (held >= passkeyLimits.perUser) throw badRequest(`You already have ${passkeyLimits.perUser} passkeys: remove one first.`);
      const [row] = await tx
        .insert(passkeys)
        .values({
          userId,
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey),
          counter: credential.counter,
          transports: credential.transports?.slice(0, 16) ?? null,
          name: input.name,
          createdAt: clock.now(),
        })
        .returning();
      if (!row) throw new Error("insert returned no passkey");
      await refreshSecondFactorFlag(tx, userId);
      // Added in a freshly proved session, the passkey counts as this session's second factor.
      await passedSecondFactor(tx, clock, caller.sessionId);
      await recordAudit(tx, clock, {
        actorId: userId,
        companyId: null,
        action: "second_factor.passkey_added",
        targetType: "passkey",
        targetId: row.id,
        // The key's hash ties it to this account in the exported chain: a certificate's signature names the key itself.
        details: {
          name: row.name,
          credentialId: row.credentialId,
          publicKeySha256: createHash("sha256").update(row.publicKey).digest("hex"),
        },
      });
      await tellAccountHolder(tx, clock, caller.user, `A passkey ("${row.name}") was added to your account.`);
      return toPasskey(row);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw badRequest("This passkey is already registered.");
    throw error;
  }
}

/** Whose passkey the id names (the route's guard); null when none. */
export async function passkeyOwnerOf({ db }: ServiceDeps<"db">, id: number): Promise<number | null> {
  const [row] = await db.select({ userId: passkeys.userId }).from(passkeys).where(eq(passkeys.id, id));
  return row?.userId ?? null;
}

/** Removes one of the user's passkeys; another user's reads as missing. */
export async function deletePasskey(deps: PasskeyDeps, user: UserRow, passkeyId: number): Promise<void> {
  const { db, clock } = deps;
  const userId = user.id;
  await db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(passkeys)
      .where(and(eq(passkeys.id, passkeyId), eq(passkeys.userId, userId)))
      .returning({ id: passkeys.id, name: passkeys.name });
    if (!removed) throw notFound("Passkey not found");
    await refreshSecondFactorFlag(tx, userId);
    await recordAudit(tx, clock, {
      actorId: userId,
      companyId: null,
      action: "second_factor.passkey_removed",
      targetType: "passkey",
      targetId: removed.id,
      details: { name: removed.name },
    });
    await tellAccountHolder(tx, clock, user, `A passkey ("${removed.name}") was removed from your account.`);
  });
}
