// Signing a written resolution: the statement a director signs, the signature with its evidence, and withdrawing it.
// Every check of the resolution's state runs under its row lock, in the transaction that writes the signature, its
// audit event and the decision it may bring.
import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { ResolutionDetails } from "../../../../shared/resolutions";
import {
  signingStatementText,
  type SignDecision,
  type SignOptions,
  type SignResolutionInput,
  type SigningStatement,
} from "../../../../shared/written-resolutions";
import type { ServiceDeps } from "../../app-deps";
import { recordAudit } from "../../db/audit";
import type { Transaction } from "../../db/client";
import { writtenSignatures } from "../../db/schema";
import { badRequest, conflict } from "../../http/errors";
import type { UserRow } from "../../http/request-context";
import {
  checkSigningPassword,
  openSigningChallenge,
  passwordSigningNonce,
  spendPasskey,
  takeSigningChallenge,
  verifySigningPasskey,
  type PasskeyEvidence,
} from "../auth/signing-proof.service";
import { openResolutionWrite, type LiveState, type Writer } from "./open-resolution-write.service";
import type { ResolutionRow } from "./resolution-decision";
import { resolutionDetails } from "./resolutions-read.service";
import { decideWrittenIfReady, ruleOf } from "./written-decision";

type Deps = ServiceDeps<"db" | "clock" | "mail" | "appSecret">;

const notWritten = "This resolution is decided by an online vote, not by signatures";
const statementMismatch = "The statement does not match this signature: ask for a new one";
const nonceSpent = "The statement to sign has expired or was already used: ask for a new one";

/** Refuses a signature the resolution's state does not allow; the row is locked and pending, before its lapse. */
async function assertMaySign(tx: Transaction, row: ResolutionRow, state: LiveState, userId: number, decision: SignDecision) {
  if (row.procedure !== "written") throw conflict(notWritten);
  if (!state.mayVote) throw conflict("You declared a conflict of interest on this resolution: withdraw it to sign");
  if (decision === "meeting" && ruleOf(row).kind !== "majority") {
    throw conflict("Only under the majority rule may a director ask for a meeting instead");
  }
  const [signed] = await tx
    .select({ id: writtenSignatures.id })
    .from(writtenSignatures)
    .where(and(eq(writtenSignatures.resolutionId, row.id), eq(writtenSignatures.userId, userId)));
  if (signed) throw conflict("You have already signed this resolution");
}

const statementOf = (row: ResolutionRow, decision: SignDecision, signerId: number, nonce: string): SigningStatement => ({
  resolutionId: row.id,
  companyId: row.companyId,
  textSha256: row.textSha256 ?? "",
  decision,
  signerId,
  nonce,
});

/**
 * `POST /api/resolutions/:id/sign-options`: for an eligible director who has not signed a pending written resolution,
 * the statement of their decision with a fresh nonce and the passkey request whose challenge is its hash.
 */
export async function signOptions(deps: Deps, writer: Writer, id: number, decision: SignDecision): Promise<SignOptions> {
  const row = await openResolutionWrite(deps, id, writer, async (tx, locked, state) => {
    await assertMaySign(tx, locked, state, writer.userId, decision);
    return locked;
  });
  return openSigningChallenge(deps, writer.userId, (nonce) => signingStatementText(statementOf(row, decision, writer.userId, nonce)));
}

const statementKeys = ["companyId", "decision", "nonce", "resolutionId", "signerId", "textSha256"].join(",");

/** The statement sent back, read: exactly its six fields, in canonical form; null when it is anything else. */
function parseStatement(text: string): SigningStatement | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  const fields = value as Record<string, unknown>;
  if (Object.keys(fields).sort().join(",") !== statementKeys) return null;
  const { resolutionId, companyId, textSha256, decision, signerId, nonce } = fields;
  if (!Number.isInteger(resolutionId) || !Number.isInteger(companyId) || !Number.isInteger(signerId)) return null;
  if (typeof textSha256 !== "string" || typeof decision !== "string" || typeof nonce !== "string") return null;
  const statement = fields as unknown as SigningStatement;
  return signingStatementText(statement) === text ? statement : null;
}

/** Who signs: the writer, and their account (the password path checks it). */
export interface Signer {
  writer: Writer;
  user: UserRow;
}

/**
 * `POST /api/resolutions/:id/signatures`: a passkey's assertion over a statement issued to the caller (its nonce is
 * spent at the first use, right or wrong), or the password with the code where the account has an app. Under the row
 * lock: the resolution may still be signed by the caller, the statement names it as it is, and the signature, its
 * audit event and any decision it brings are written together. Answers the resolution as `GET` does.
 */
export async function signResolution(deps: Deps, signer: Signer, id: number, input: SignResolutionInput, ip: string) {
  const { userId } = signer.writer;
  // Who may not sign it is told so before any proof is looked at (an outsider learns nothing, a password is not
  // counted); the same checks run again under the lock that writes the signature.
  await openResolutionWrite(deps, id, signer.writer, (tx, row, state) => assertMaySign(tx, row, state, userId, input.decision));
  let proof: { statement: SigningStatement; text: string; evidence: PasskeyEvidence } | { method: "password" | "password+totp" };
  if ("response" in input) {
    const statement = parseStatement(input.statement);
    if (!statement) throw badRequest(statementMismatch);
    if (!(await takeSigningChallenge(deps.db, deps.clock, userId, statement.nonce, input.statement))) throw badRequest(nonceSpent);
    if (statement.resolutionId !== id || statement.signerId !== userId || statement.decision !== input.decision) {
      throw badRequest(statementMismatch);
    }
    const evidence = await verifySigningPasskey(deps, userId, input.statement, input.response);
    proof = { statement, text: input.statement, evidence };
  } else {
    const method = await checkSigningPassword(deps, signer.user, input, ip);
    proof = { method: method === "password+totp" ? "password+totp" : "password" };
  }

  const role = await openResolutionWrite(deps, id, signer.writer, async (tx, row, state) => {
    await assertMaySign(tx, row, state, userId, input.decision);
    const now = deps.clock.now();
    let values: typeof writtenSignatures.$inferInsert;
    if ("evidence" in proof) {
      const { statement, evidence } = proof;
      if (statement.companyId !== row.companyId || statement.textSha256 !== row.textSha256) throw badRequest(statementMismatch);
      await spendPasskey(tx, deps, evidence);
      values = {
        resolutionId: id,
        userId,
        decision: input.decision,
        method: "passkey",
        signedAt: now,
        statement: proof.text,
        nonce: statement.nonce,
        credentialId: evidence.credentialId,
        publicKey: evidence.publicKey,
        authenticatorData: evidence.authenticatorData,
        clientDataJson: evidence.clientDataJSON,
        signature: evidence.signature,
      };
    } else {
      const nonce = passwordSigningNonce();
      const statement = signingStatementText(statementOf(row, input.decision, userId, nonce));
      values = { resolutionId: id, userId, decision: input.decision, method: proof.method, signedAt: now, statement, nonce };
    }
    await tx.insert(writtenSignatures).values(values);
    // How a director decided is not told before the outcome: the trail records that they signed, and how they proved it.
    await recordAudit(tx, deps.clock, {
      actorId: userId,
      companyId: row.companyId,
      action: "resolution.signed",
      targetType: "resolution",
      targetId: id,
      // A passkey's credential and key hash tie the signature, through the company's chain, to the key's registration.
      details: {
        method: values.method,
        textSha256: row.textSha256,
        ...(values.publicKey
          ? {
              credentialId: values.credentialId,
              publicKeySha256: createHash("sha256").update(Buffer.from(values.publicKey, "base64url")).digest("hex"),
            }
          : {}),
      },
    });
    await decideWrittenIfReady(tx, deps.clock, row, userId);
    return state.voterRole;
  });
  return resolutionDetails(deps, id, { userId, role });
}

/**
 * `DELETE /api/resolutions/:id/signatures/mine`: withdraws the caller's signature while the resolution is pending and
 * the rule it was proposed under allows it. Answers the resolution as `GET` does.
 */
export async function withdrawSignature(deps: Deps, writer: Writer, id: number): Promise<ResolutionDetails> {
  const { userId } = writer;
  const role = await openResolutionWrite(deps, id, writer, async (tx, row, state) => {
    if (row.procedure !== "written") throw conflict(notWritten);
    if (!ruleOf(row).allowWithdrawal) throw conflict("The board's rule for this resolution does not allow a signature to be withdrawn");
    const removed = await tx
      .delete(writtenSignatures)
      .where(and(eq(writtenSignatures.resolutionId, id), eq(writtenSignatures.userId, userId)))
      .returning({ method: writtenSignatures.method });
    if (removed.length === 0) throw conflict("You have not signed this resolution");
    await recordAudit(tx, deps.clock, {
      actorId: userId,
      companyId: row.companyId,
      action: "resolution.signature_withdrawn",
      targetType: "resolution",
      targetId: id,
    });
    await decideWrittenIfReady(tx, deps.clock, row, userId);
    return state.voterRole;
  });
  return resolutionDetails(deps, id, { userId, role });
}
