import { randomBytes } from "node:crypto";
import {
  decideWritten,
  defaultWrittenRule,
  signingStatementText,
  writtenOutcomeHeading,
  type SignatureMethod,
  type SignDecision,
  type WrittenCertificate,
  type WrittenRule,
  type WrittenSignature,
} from "../../../shared/written-resolutions";
import { statementChallenge, textSha256 } from "../crypto/text-hash";
import { coseKey, SoftwareAuthenticator } from "./software-authenticator";

/** A director of a fixture certificate: those with a decision sign it, in the order given. */
export interface FixtureDirector {
  name: string;
  decision?: SignDecision;
  /** How they sign; a passkey unless told. */
  method?: SignatureMethod;
}

export interface CertificateFixtureOptions {
  directors: FixtureDirector[];
  /** Directors recused from it (neither eligible nor signing). */
  recused?: string[];
  rule?: Partial<WrittenRule>;
  resolutionId?: number;
  companyId?: number;
  title?: string;
  text?: string;
  proposedAt?: Date;
  /** The first director's user id; the others follow. */
  firstUserId?: number;
}

const hour = 60 * 60 * 1000;
const day = 24 * hour;
const origin = "https://board.quorum.test";

/** One director's signature over their canonical statement: a real passkey assertion, or a password's record. */
export function signedStatement(
  certificate: Pick<WrittenCertificate, "resolutionId" | "companyId" | "textSha256">,
  person: { userId: number; name: string },
  decision: SignDecision,
  method: SignatureMethod,
  signedAt: Date,
): WrittenSignature {
  const statement = signingStatementText({
    resolutionId: certificate.resolutionId,
    companyId: certificate.companyId,
    textSha256: certificate.textSha256,
    decision,
    signerId: person.userId,
    nonce: randomBytes(16).toString("base64url"),
  });
  const base = { ...person, decision, method, signedAt: signedAt.toISOString(), statement };
  if (method !== "passkey") return base;
  const rpId = new URL(origin).hostname;
  const authenticator = new SoftwareAuthenticator({ origin });
  authenticator.register({ rp: { id: rpId }, user: { id: `quorum-user-${person.userId}` }, challenge: "registration" });
  const credential = authenticator.credentials[0]!;
  const assertion = authenticator.authenticate({ rpId, challenge: statementChallenge(statement) });
  return {
    ...base,
    credentialId: credential.id,
    publicKey: Buffer.from(coseKey(credential.publicKey)).toString("base64url"),
    authenticatorData: assertion.response.authenticatorData,
    clientDataJSON: assertion.response.clientDataJSON,
    signature: assertion.response.signature,
  };
}

/**
 * A decided written resolution's certificate, as the server freezes it: each signing director signs an hour after
 * the one before, with a software passkey unless told; the rule decides it at the signature that settles it, or at
 * the lapse when none does.
 */
export function writtenCertificateFixture(options: CertificateFixtureOptions): WrittenCertificate {
  const rule: WrittenRule = { ...defaultWrittenRule, ...options.rule };
  const firstUserId = options.firstUserId ?? 101;
  const people = [...options.directors.map((director) => director.name), ...(options.recused ?? [])].map((name, index) => ({
    userId: firstUserId + index,
    name,
  }));
  const eligible = people.slice(0, options.directors.length);
  const recused = people.slice(options.directors.length);
  const proposedAt = options.proposedAt ?? new Date("2026-06-01T09:00:00.000Z");
  const lapsesAt = new Date(proposedAt.getTime() + rule.lapseDays * day);
  const text = options.text ?? "RESOLVED, that the Company adopts the FY27 budget as circulated.\n\nCapex of €2m.";
  const frame = { resolutionId: options.resolutionId ?? 41, companyId: options.companyId ?? 7, textSha256: textSha256(text) };

  const signatures: WrittenSignature[] = [];
  const counts = { agree: 0, disagree: 0, meeting: 0 };
  let outcome = decideWritten(rule, eligible.length, counts, false);
  let at = proposedAt;
  for (const [index, director] of options.directors.entries()) {
    if (!director.decision || outcome.decided) continue;
    at = new Date(proposedAt.getTime() + (signatures.length + 1) * hour);
    signatures.push(signedStatement(frame, eligible[index]!, director.decision, director.method ?? "passkey", at));
    counts[director.decision] += 1;
    outcome = decideWritten(rule, eligible.length, counts, false);
  }
  const lapsed = !outcome.decided;
  if (lapsed) outcome = decideWritten(rule, eligible.length, counts, true);
  if (!outcome.decided) throw new Error("the rule did not decide the fixture even at the lapse");
  const decidedAt = lapsed ? lapsesAt : at;
  const effectiveAt = outcome.outcome === "rejected" ? null : at.toISOString();
  return {
    procedure: "written",
    ...frame,
    title: options.title ?? "Adopt the FY27 budget",
    text,
    rule,
    proposedAt: proposedAt.toISOString(),
    lapsesAt: lapsesAt.toISOString(),
    eligible,
    recused,
    signatures,
    outcome: outcome.outcome,
    effectiveAt,
    decidedAt: decidedAt.toISOString(),
    explanation: `${writtenOutcomeHeading(outcome)}: ${outcome.reason}`,
    auditHeadHash: "0".repeat(64),
  };
}
