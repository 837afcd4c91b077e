// Checks a written resolution's certificate with nothing but the certificate: no database, no network. Each
// signature's statement must commit to this resolution, this text and the decision recorded; each passkey's
// assertion must verify over that statement with the key the certificate carries; each signer must have been
// eligible; and the board's rule, applied to the signatures, must give the outcome and the effective time recorded.
import { createHash } from "node:crypto";
import { decodeClientDataJSON, parseAuthenticatorData, verifySignature } from "@simplewebauthn/server/helpers";
import {
  canonicalJson,
  decideWritten,
  decidingSignatureIndex,
  writtenCertificateSchema,
  type WrittenCertificate,
  type WrittenSignature,
} from "../../../shared/written-resolutions";
import { statementChallenge, textSha256 } from "./text-hash";

export type CertificateCheck = { valid: true; lines: string[] } | { valid: false; lines: string[]; failure: string };

const statementKeys = ["companyId", "decision", "nonce", "resolutionId", "signerId", "textSha256"] as const;

/** Thrown inside the check: the first thing that does not hold. */
class Failure extends Error {}

const fail = (message: string): never => {
  throw new Failure(message);
};

const who = (signature: Pick<WrittenSignature, "name" | "userId">) => `${signature.name} (user ${signature.userId})`;

const bytes = (value: string) => new Uint8Array(Buffer.from(value, "base64url"));

const time = (value: string, what: string): number => {
  const at = Date.parse(value);
  return Number.isNaN(at) ? fail(`${what} is not a time: ${JSON.stringify(value)}`) : at;
};

/** The statement's fields, when it is the canonical JSON of exactly the six fields a signature commits to. */
function readStatement(signature: WrittenSignature): Record<(typeof statementKeys)[number], unknown> {
  const signer = who(signature);
  let parsed: unknown;
  try {
    parsed = JSON.parse(signature.statement);
  } catch {
    return fail(`${signer}: the signed statement is not JSON`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
    return fail(`${signer}: the signed statement is not an object`);
  if (canonicalJson(parsed) !== signature.statement) return fail(`${signer}: the signed statement is not in canonical form`);
  const keys = Object.keys(parsed).sort();
  if (keys.join(",") !== statementKeys.join(",")) {
    return fail(`${signer}: the signed statement has the fields ${keys.join(", ")}, not ${statementKeys.join(", ")}`);
  }
  return parsed as Record<(typeof statementKeys)[number], unknown>;
}

function checkStatement(certificate: WrittenCertificate, signature: WrittenSignature, textHash: string): string {
  const signer = who(signature);
  const statement = readStatement(signature);
  const expect = (field: (typeof statementKeys)[number], value: unknown, what: string) => {
    if (statement[field] !== value)
      fail(`${signer}: the signed statement names ${what} ${JSON.stringify(statement[field])}, not ${JSON.stringify(value)}`);
  };
  expect("resolutionId", certificate.resolutionId, "resolution");
  expect("companyId", certificate.companyId, "company");
  if (statement.textSha256 !== textHash)
    fail(`${signer}: signed a text whose SHA-256 is ${String(statement.textSha256)}, but this text's is ${textHash}`);
  expect("signerId", signature.userId, "signer");
  expect("decision", signature.decision, "the decision");
  if (typeof statement.nonce !== "string" || statement.nonce.length === 0) fail(`${signer}: the signed statement has no nonce`);
  return statement.nonce as string;
}

/** The passkey's assertion: made for this statement's challenge, with the user verified, and signed by the key shown. */
async function checkPasskey(signature: WrittenSignature): Promise<void> {
  const signer = who(signature);
  const { publicKey, authenticatorData, clientDataJSON, signature: signed, credentialId } = signature;
  if (!publicKey || !authenticatorData || !clientDataJSON || !signed || !credentialId) {
    fail(`${signer}: a passkey signature without its credential id, public key, authenticator data, client data and signature`);
    return;
  }
  let clientData: { type?: unknown; challenge?: unknown };
  try {
    clientData = decodeClientDataJSON(clientDataJSON) as { type?: unknown; challenge?: unknown };
  } catch {
    return fail(`${signer}: the passkey's client data cannot be read`);
  }
  if (clientData.type !== "webauthn.get")
    fail(`${signer}: the passkey's client data is of type ${JSON.stringify(clientData.type)}, not "webauthn.get"`);
  if (clientData.challenge !== statementChallenge(signature.statement))
    fail(`${signer}: the passkey answered another challenge than the statement's`);
  const authData = bytes(authenticatorData);
  let userVerified: boolean;
  try {
    userVerified = parseAuthenticatorData(authData).flags.uv;
  } catch {
    return fail(`${signer}: the passkey's authenticator data cannot be read`);
  }
  if (!userVerified) fail(`${signer}: the passkey did not verify its user`);
  const clientDataHash = createHash("sha256").update(bytes(clientDataJSON)).digest();
  let verified: boolean;
  try {
    verified = await verifySignature({
      signature: bytes(signed),
      data: new Uint8Array(Buffer.concat([authData, clientDataHash])),
      credentialPublicKey: bytes(publicKey),
    });
  } catch {
    verified = false;
  }
  if (!verified) fail(`${signer}: the passkey's signature does not verify with its public key`);
}

/**
 * A signer's line. A passkey's names its key by the SHA-256 of the COSE public key, which the key's registration event
 * in the audit chain carries: that ties the key to its account. A password signature cannot be checked offline: its
 * line says so, and it rests on Quorum's record.
 */
function signatureLine(signature: WrittenSignature): string {
  const head = `${who(signature)}: ${signature.decision} by ${signature.method} at ${signature.signedAt}`;
  if (signature.method !== "passkey") return `${head}: statement ok; a ${signature.method} signature cannot be checked offline`;
  const keyHash = createHash("sha256")
    .update(Buffer.from(signature.publicKey ?? "", "base64url"))
    .digest("hex");
  return `${head}, credential ${signature.credentialId ?? ""}, key sha256 ${keyHash}: signature verified`;
}

async function check(certificate: WrittenCertificate, lines: string[]): Promise<void> {
  const textHash = textSha256(certificate.text);
  const eligible = new Set(certificate.eligible.map((person) => person.userId));
  const recused = new Set(certificate.recused.map((person) => person.userId));
  const signers = new Set<number>();
  const nonces = new Set<string>();
  const proposedAt = time(certificate.proposedAt, "proposedAt");
  const decidedAt = time(certificate.decidedAt, "decidedAt");
  const lapsesAt = time(certificate.lapsesAt, "lapsesAt");
  const lapseDays = Math.round((lapsesAt - proposedAt) / 86_400_000);
  if (lapsesAt - proposedAt !== certificate.rule.lapseDays * 86_400_000)
    fail(`it lapses ${lapseDays} days after it was proposed, not the ${certificate.rule.lapseDays} of its rule`);
  for (const signature of certificate.signatures) {
    const signer = who(signature);
    const nonce = checkStatement(certificate, signature, textHash);
    if (nonces.has(nonce)) fail(`${signer}: the nonce of the statement was used by another signature`);
    nonces.add(nonce);
    if (signature.method === "passkey") await checkPasskey(signature);
    if (recused.has(signature.userId)) fail(`${signer}: signed but was recused`);
    if (!eligible.has(signature.userId)) fail(`${signer}: signed but was not an eligible director`);
    if (signers.has(signature.userId)) fail(`${signer}: signed more than once`);
    signers.add(signature.userId);
    const at = time(signature.signedAt, `${signer}: signedAt`);
    if (at < proposedAt || at > decidedAt || at > lapsesAt)
      fail(`${signer}: signed at ${signature.signedAt}, outside ${certificate.proposedAt} – ${certificate.decidedAt} or after the lapse`);
    lines.push(signatureLine(signature));
  }
  if (certificate.textSha256 !== textHash) fail(`the text's SHA-256 is ${textHash}, not the ${certificate.textSha256} recorded`);

  const counts = { agree: 0, disagree: 0, meeting: 0 };
  for (const signature of certificate.signatures) counts[signature.decision] += 1;
  const decided = decideWritten(certificate.rule, certificate.eligible.length, counts, decidedAt >= lapsesAt);
  const tally = `${counts.agree} agree, ${counts.disagree} disagree, ${counts.meeting} meeting of ${certificate.eligible.length} eligible`;
  if (!decided.decided) fail(`the rule does not decide it with ${tally}, yet it is recorded as ${certificate.outcome}`);
  else if (decided.outcome !== certificate.outcome)
    fail(`the rule gives ${decided.outcome} with ${tally}, not the ${certificate.outcome} recorded`);
  // The effective time is that of the signature which met the rule, in the order they were given.
  const inOrder = [...certificate.signatures].sort((a, b) => time(a.signedAt, "signedAt") - time(b.signedAt, "signedAt"));
  const index = decidingSignatureIndex(
    certificate.rule,
    certificate.eligible.length,
    certificate.outcome,
    inOrder.map((signature) => signature.decision),
  );
  const deciding = index === null ? undefined : inOrder[index];
  if (certificate.outcome === "rejected") {
    if (certificate.effectiveAt !== null) fail(`a rejected resolution has no effective time, yet ${certificate.effectiveAt} is recorded`);
  } else if (
    !deciding ||
    certificate.effectiveAt === null ||
    time(certificate.effectiveAt, "effectiveAt") !== time(deciding.signedAt, "signedAt")
  ) {
    fail(`the effective time is the deciding signature's (${deciding?.signedAt ?? "none"}), not the ${certificate.effectiveAt} recorded`);
  }
  lines.push(`${certificate.outcome}: ${tally}, under the ${certificate.rule.kind} rule`);
  const unchecked = certificate.signatures.filter((signature) => signature.method !== "passkey").length;
  if (unchecked > 0) {
    lines.push(
      `${certificate.signatures.length - unchecked} of ${certificate.signatures.length} signatures verified with their passkeys; ${unchecked} by password rest on Quorum's record`,
    );
  }
}

/**
 * Checks a certificate (already parsed from its JSON): one line per signer and the outcome's, and `valid`, or the
 * first thing that does not hold, naming the signer where it is a signer's.
 */
export async function checkWrittenCertificate(value: unknown): Promise<CertificateCheck> {
  const lines: string[] = [];
  const parsed = writtenCertificateSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join(".")}` : "";
    return { valid: false, lines, failure: `not a written resolution's certificate${where}: ${issue?.message ?? "unreadable"}` };
  }
  try {
    await check(parsed.data, lines);
    return { valid: true, lines };
  } catch (error) {
    if (error instanceof Failure) return { valid: false, lines, failure: error.message };
    throw error;
  }
}
