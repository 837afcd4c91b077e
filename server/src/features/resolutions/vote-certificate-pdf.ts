// A voted resolution's certificate (online, or by a show of hands in a meeting) as a PDF: what a person reads (the text,
// the rule, quorum, who was eligible, every counted vote and the outcome), with the frozen certificate attached inside
// as certificate.json, as a written resolution's PDF has it. Made when asked (the board's archive), from the certificate
// alone: the same certificate gives the same bytes.
import type { Certificate } from "../../../../shared/resolutions";
import { formatUtc } from "../../clock";
import { Flow, type Style } from "../../integrations/pdf-layout";
import { certificateAttachmentName, finishCertificatePdf, openCertificatePdf } from "./written-certificate-pdf";

/** The resolution the certificate decided: what the certificate itself does not repeat. */
export interface VotedResolution {
  id: number;
  title: string;
  description: string;
  type: string;
  company: string;
}

const styles = {
  title: { font: "bold", size: 18 },
  subtitle: { size: 11, color: "muted" },
  heading: { font: "bold", size: 12.5 },
  body: { size: 10.5 },
  outcome: { font: "bold", size: 11, color: "accent" },
  detail: { size: 9, color: "muted" },
} satisfies Record<string, Style>;

const names = (people: { name: string }[]) => (people.length === 0 ? "none" : people.map((person) => person.name).join(", "));

/** The certificate's PDF, with its JSON attached. */
export async function renderVoteCertificatePdf(certificate: Certificate, resolution: VotedResolution): Promise<Uint8Array> {
  const title = `Resolution #${resolution.id}: ${resolution.title}`;
  const { pdf, fonts } = await openCertificatePdf(title, resolution.company);

  const flow = new Flow(fonts);
  flow.text(title, styles.title);
  const how = certificate.meetingId === undefined ? "decided by an online vote" : "decided by a show of hands in a meeting";
  const article = /^[AEIO]/.test(resolution.type) ? "an" : "a";
  flow.text(`Certificate of ${article} ${resolution.type} resolution of ${resolution.company}, ${how}`, styles.subtitle);
  flow.space(6);
  flow.text(certificate.explanation, styles.outcome);
  flow.text(`Decided ${formatUtc(certificate.decidedAt)} (${certificate.decidedAt})`, styles.detail);
  flow.space(6);
  flow.rule();

  flow.text("The text", styles.heading);
  for (const line of resolution.description.replace(/\s+$/, "").split(/\r?\n/)) flow.text(line, styles.body);
  flow.space(6);
  flow.rule();

  flow.text("The rule", styles.heading);
  flow.text(`${certificate.rule}.`, styles.body);
  const { quorum } = certificate;
  flow.text(`Quorum: ${quorum.rule}: ${quorum.required} needed, ${quorum.present} voted, ${quorum.met ? "met" : "not met"}.`, styles.body);
  flow.text(`Eligible voters (${certificate.eligible.length}): ${names(certificate.eligible)}`, styles.body);
  const recused = certificate.recused.map((person) => ({ name: `${person.name} (${person.reason})` }));
  flow.text(`Recused: ${names(recused)}`, styles.body);
  if (certificate.attendance) {
    const attended = certificate.attendance.map((person) => ({ name: `${person.name} (${person.status})` }));
    flow.text(`Attendance at the meeting: ${names(attended)}`, styles.body);
  }
  flow.space(6);
  flow.rule();

  flow.text(`Votes (${certificate.yes} yes, ${certificate.no} no, ${certificate.abstain} abstain)`, styles.heading);
  if (certificate.votes.length === 0) flow.text("None recorded by name.", styles.body);
  for (const vote of certificate.votes) {
    const comment = vote.comment ? `: ${vote.comment}` : "";
    flow.block(
      [
        ...flow.lines(`${vote.name}: ${vote.vote}${comment}`, styles.body),
        ...flow.lines(`Cast ${formatUtc(vote.castAt)} (${vote.castAt})`, styles.detail, { indent: 12 }),
      ],
      { keepTogether: true },
    );
  }
  flow.space(6);
  flow.rule();
  flow.text(`The certificate as frozen at the decision is attached to this PDF as ${certificateAttachmentName}.`, styles.detail);

  return finishCertificatePdf({ pdf, fonts, flow }, certificate, "The machine-readable certificate of this resolution");
}
