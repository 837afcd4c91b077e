// A written resolution's certificate as a PDF for the library: what a person reads (the text, its hash, the rule, who
// was eligible, each signature and the outcome), with the machine-readable certificate attached inside as
// certificate.json, which `npm run verify-resolution` checks offline. Small and made from Quorum's own record, it is
// written on the calling thread.
import { createHash } from "node:crypto";
import { AFRelationship, PDFDocument, StandardFonts } from "@cantoo/pdf-lib";
import {
  signDecisionLabels,
  writtenRuleWords,
  type WrittenCertificate,
  type WrittenSignature,
} from "../../../../shared/written-resolutions";
import { formatUtc } from "../../clock";
import { drawFooter, Flow, pageSize, render, type Fonts, type Style } from "../../integrations/pdf-layout";

/** The attachment's name inside the PDF. */
export const certificateAttachmentName = "certificate.json";

const styles = {
  title: { font: "bold", size: 18 },
  subtitle: { size: 11, color: "muted" },
  heading: { font: "bold", size: 12.5 },
  body: { size: 10.5 },
  outcome: { font: "bold", size: 11, color: "accent" },
  signer: { font: "bold", size: 10.5 },
  detail: { size: 9, color: "muted" },
} satisfies Record<string, Style>;

const methodWords: Record<WrittenSignature["method"], string> = {
  passkey: "passkey",
  password: "password",
  "password+totp": "password and authenticator code",
};

const names = (people: { name: string }[]) => (people.length === 0 ? "none" : people.map((person) => person.name).join(", "));

/** Hex SHA-256 of a passkey's COSE public key: what its registration's audit event carries. */
export const publicKeySha256 = (publicKey: string) => createHash("sha256").update(Buffer.from(publicKey, "base64url")).digest("hex");

function signatureLines(flow: Flow, signature: WrittenSignature) {
  const details = [`Signed ${formatUtc(signature.signedAt)} (${signature.signedAt}) by ${methodWords[signature.method]}`];
  if (signature.credentialId) details.push(`Passkey credential: ${signature.credentialId}`);
  if (signature.publicKey) details.push(`SHA-256 of its public key: ${publicKeySha256(signature.publicKey)}`);
  details.push(`Signed statement: ${signature.statement}`);
  return [
    ...flow.lines(`${signature.name}: ${signDecisionLabels[signature.decision]}`, styles.signer),
    ...details.flatMap((line) => flow.lines(line, styles.detail, { indent: 12 })),
  ];
}

/** The certificate's PDF, with its JSON attached; the same certificate gives the same bytes. */
export async function renderWrittenCertificatePdf(
  certificate: WrittenCertificate,
  options: { company?: string } = {},
): Promise<Uint8Array> {
  const title = `Written resolution #${certificate.resolutionId}: ${certificate.title}`;
  const { pdf, fonts } = await openCertificatePdf(title, options.company);
  const flow = new Flow(fonts);
  flow.text(title, styles.title);
  flow.text(`Certificate of a written resolution${options.company ? ` of ${options.company}` : ""}`, styles.subtitle);
  flow.space(6);
  flow.text(certificate.explanation, styles.outcome);
  const times = [`Proposed ${formatUtc(certificate.proposedAt)}`, `lapses ${formatUtc(certificate.lapsesAt)}`];
  times.push(`decided ${formatUtc(certificate.decidedAt)}`);
  if (certificate.effectiveAt) times.push(`effective ${formatUtc(certificate.effectiveAt)} (${certificate.effectiveAt})`);
  flow.text(times.join("; "), styles.detail);
  flow.space(6);
  flow.rule();

  flow.text("The text", styles.heading);
  for (const line of certificate.text.replace(/\s+$/, "").split(/\r?\n/)) flow.text(line, styles.body);
  flow.space(4);
  flow.text(`SHA-256 of the text (its UTF-8 bytes): ${certificate.textSha256}`, styles.detail);
  flow.space(6);
  flow.rule();

  flow.text("The board's rule", styles.heading);
  const withdrawal = certificate.rule.allowWithdrawal
    ? "a signature may be withdrawn until it takes effect"
    : "a signature may not be withdrawn";
  flow.text(`${writtenRuleWords(certificate.rule)}; ${withdrawal}.`, styles.body);
  flow.text(`Eligible directors (${certificate.eligible.length}): ${names(certificate.eligible)}`, styles.body);
  flow.text(`Recused: ${names(certificate.recused)}`, styles.body);
  flow.space(6);
  flow.rule();

  flow.text(`Signatures (${certificate.signatures.length})`, styles.heading);
  if (certificate.signatures.length === 0) flow.text("None.", styles.body);
  for (const signature of certificate.signatures) {
    flow.block(signatureLines(flow, signature), { keepTogether: true });
    flow.space(4);
  }
  flow.rule();
  flow.text(`The company's audit chain head when it was decided: ${certificate.auditHeadHash}`, styles.detail);
  flow.text(
    `The machine-readable certificate is attached to this PDF as ${certificateAttachmentName}; ` +
      "`npm run verify-resolution -- <this file>` checks it with no database and no network.",
    styles.detail,
  );

  return finishCertificatePdf({ pdf, fonts, flow }, certificate, "The machine-readable certificate of this written resolution");
}

/** A certificate's PDF begun: its metadata set and its fonts embedded (no dates: the same certificate, the same bytes). */
export async function openCertificatePdf(title: string, company: string | undefined): Promise<{ pdf: PDFDocument; fonts: Fonts }> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.setTitle(title, { showInWindowTitleBar: true });
  if (company) pdf.setAuthor(company);
  pdf.setCreator("Quorum");
  pdf.setProducer("Quorum");
  const fonts: Fonts = { regular: await pdf.embedFont(StandardFonts.Helvetica), bold: await pdf.embedFont(StandardFonts.HelveticaBold) };
  return { pdf, fonts };
}

/** Lays the flowed text out on numbered pages and attaches the certificate's JSON, dated as it was decided. */
export async function finishCertificatePdf(
  { pdf, fonts, flow }: { pdf: PDFDocument; fonts: Fonts; flow: Flow },
  certificate: { decidedAt: string },
  description: string,
): Promise<Uint8Array> {
  const pages = flow.pages.map((runs) => {
    const page = pdf.addPage(pageSize);
    render(page, runs, fonts);
    return page;
  });
  pages.forEach((page, index) => drawFooter(page, `Page ${index + 1} of ${pages.length}`, fonts.regular));

  const decidedAt = new Date(certificate.decidedAt);
  await pdf.attach(new TextEncoder().encode(JSON.stringify(certificate, null, 2)), certificateAttachmentName, {
    mimeType: "application/json",
    description,
    creationDate: decidedAt,
    modificationDate: decidedAt,
    afRelationship: AFRelationship.Data,
  });
  return pdf.save({ useObjectStreams: false });
}

/** The certificate attached to such a PDF, parsed from its JSON (still to be checked); throws when there is none. */
export async function certificateFromPdf(bytes: Uint8Array): Promise<unknown> {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  const attachment = pdf.getAttachments().find((each) => each.name === certificateAttachmentName);
  if (!attachment) throw new Error(`the PDF has no ${certificateAttachmentName} attached`);
  return JSON.parse(new TextDecoder().decode(attachment.data)) as unknown;
}
