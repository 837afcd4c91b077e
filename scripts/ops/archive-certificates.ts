// The check of one certificate in a board's archive, offline: its certificate.json must be a certificate that holds,
// and its certificate.pdf must carry that same certificate inside. A written resolution's is checked as
// `npm run verify-resolution` checks it (every statement, passkey signature and the board's rule); a voted
// resolution's tally, quorum and outcome are counted again from its votes.
import { canonicalJson } from "../../shared/audit-chain";
import { certificateSchema, decideOutcome, resolutionRules, type Certificate, type ResolutionType } from "../../shared/resolutions";
import { checkWrittenCertificate } from "../../server/src/crypto/written-certificate-check";

export type CertificateVerdict =
  { ok: true; kind: "written" | "voted" } | { ok: false; file: "certificate.json" | "certificate.pdf"; reason: string };

/** The first thing in a voted resolution's certificate that its own votes do not give, or null. */
function voteCertificateProblem(certificate: Certificate): string | null {
  const eligible = new Set(certificate.eligible.map((person) => person.userId));
  const recused = new Set(certificate.recused.map((person) => person.userId));
  const voters = new Set<number>();
  const tally = { yes: 0, no: 0, abstain: 0 };
  for (const vote of certificate.votes) {
    if (!eligible.has(vote.userId) || recused.has(vote.userId))
      return `${vote.name} (user ${vote.userId}) voted but was not an eligible voter`;
    if (voters.has(vote.userId)) return `${vote.name} (user ${vote.userId}) voted more than once`;
    voters.add(vote.userId);
    tally[vote.vote] += 1;
  }
  if (tally.yes !== certificate.yes || tally.no !== certificate.no || tally.abstain !== certificate.abstain) {
    return `its votes give ${tally.yes} yes, ${tally.no} no, ${tally.abstain} abstain, not the ${certificate.yes}, ${certificate.no}, ${certificate.abstain} recorded`;
  }
  const cast = tally.yes + tally.no + tally.abstain;
  if (certificate.quorum.present !== cast) return `${cast} votes were cast, not the ${certificate.quorum.present} its quorum counts`;
  const type = (Object.keys(resolutionRules) as ResolutionType[]).find((each) => resolutionRules[each] === certificate.rule);
  if (!type) return `its rule is not one of Quorum's: ${JSON.stringify(certificate.rule)}`;
  const percent = /^at least (\d+)% of the eligible voters$/.exec(certificate.quorum.rule)?.[1];
  // A decided certificate was decided at its close: every vote in, its deadline passed, or a show of hands.
  const outcome = decideOutcome({
    type,
    tally,
    eligible: certificate.eligible.length,
    recused: certificate.recused.length,
    deadlinePassed: true,
    quorumPercent: percent === undefined ? null : Number(percent),
  });
  if (!outcome.decided) return `${cast} votes of ${certificate.eligible.length} eligible decide nothing under its rule`;
  if (outcome.quorum.required !== certificate.quorum.required || outcome.quorum.met !== certificate.quorum.met) {
    return `its quorum needs ${outcome.quorum.required} (${outcome.quorum.met ? "met" : "not met"}), not the ${certificate.quorum.required} (${certificate.quorum.met ? "met" : "not met"}) recorded`;
  }
  if (outcome.outcome !== certificate.outcome)
    return `its votes give ${outcome.outcome} under its rule, not the ${certificate.outcome} recorded`;
  return null;
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString("utf8")) as unknown;
  } catch {
    return undefined;
  }
}

/** Checks a certificate's JSON and PDF (either missing is a failure of its own). */
export async function checkArchivedCertificate(json: Buffer | undefined, pdf: Buffer | undefined): Promise<CertificateVerdict> {
  if (!json) return { ok: false, file: "certificate.json", reason: "it is missing" };
  const certificate = parseJson(json);
  if (certificate === undefined) return { ok: false, file: "certificate.json", reason: "it is not JSON" };
  const written = typeof certificate === "object" && certificate !== null && "signatures" in certificate;
  if (written) {
    const checked = await checkWrittenCertificate(certificate);
    if (!checked.valid) return { ok: false, file: "certificate.json", reason: checked.failure };
  } else {
    const parsed = certificateSchema.safeParse(certificate);
    if (!parsed.success) return { ok: false, file: "certificate.json", reason: "it is not a resolution's certificate" };
    const problem = voteCertificateProblem(parsed.data);
    if (problem) return { ok: false, file: "certificate.json", reason: problem };
  }

  if (!pdf) return { ok: false, file: "certificate.pdf", reason: "it is missing" };
  let attached: unknown;
  try {
    // pdf-lib is loaded only when a certificate is checked.
    const { certificateFromPdf } = await import("../../server/src/features/resolutions/written-certificate-pdf");
    attached = await certificateFromPdf(new Uint8Array(pdf));
  } catch (error) {
    return {
      ok: false,
      file: "certificate.pdf",
      reason: `no certificate can be read from it: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  if (canonicalJson(attached) !== canonicalJson(certificate)) {
    return { ok: false, file: "certificate.pdf", reason: "the certificate attached inside it is not the one in certificate.json" };
  }
  return { ok: true, kind: written ? "written" : "voted" };
}
