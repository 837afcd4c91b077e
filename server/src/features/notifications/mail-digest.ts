import { formatUtc } from "../../clock";
import { escapeHtml, page, unsubscribeParts, type RenderedMail, type RenderLinks } from "./mail-layout";

/** What the weekly digest's outbox row says: per company, its upcoming meetings, open votes and new documents. */
export interface DigestMeeting {
  id: number;
  title: string;
  startsAt: string;
  location: string;
}
export interface DigestVote {
  id: number;
  title: string;
  deadline: string;
}
export interface DigestDocument {
  id: number;
  name: string;
  createdAt: string;
}
export interface DigestCompany {
  name: string;
  meetings: DigestMeeting[];
  openVotes: DigestVote[];
  newDocuments: DigestDocument[];
}
export interface DigestMessage {
  type: "digest";
  /** The Monday (UTC date) the week starts on. */
  weekOf: string;
  companies: DigestCompany[];
}

/** The weekly digest: per company, its upcoming meetings, open votes and new documents, as text and HTML. */
export function renderDigest(message: DigestMessage, links: RenderLinks): RenderedMail {
  const base = links.appUrl.replace(/\/+$/, "");
  const unsubscribeUrl = links.unsubscribeUrl("emailDigest");
  const footer = unsubscribeParts(unsubscribeUrl, "emailDigest");
  const textParts: string[] = [`Your week on Quorum (week of ${message.weekOf})`];
  const htmlParts: string[] = [
    `<h1 style="font-size:18px">Your week on Quorum</h1>`,
    `<p style="color:#6b7280">Week of ${escapeHtml(message.weekOf)}</p>`,
  ];
  for (const company of message.companies) {
    const sections: { heading: string; empty: string; lines: { text: string; href: string }[] }[] = [
      {
        heading: "Upcoming meetings",
        empty: "No meetings this week.",
        lines: company.meetings.map((m) => ({
          text: `${m.title} — ${formatUtc(m.startsAt)}, ${m.location}`,
          href: `${base}/meetings/${m.id}`,
        })),
      },
      {
        heading: "Open votes",
        empty: "No open votes.",
        lines: company.openVotes.map((v) => ({
          text: `${v.title} — voting closes ${formatUtc(v.deadline)}`,
          href: `${base}/resolutions/${v.id}`,
        })),
      },
      {
        heading: "New documents",
        empty: "No new documents.",
        lines: company.newDocuments.map((d) => ({ text: `${d.name} — added ${formatUtc(d.createdAt)}`, href: `${base}/documents` })),
      },
    ];
    textParts.push(`== ${company.name} ==`);
    htmlParts.push(`<h2 style="font-size:16px;margin-top:24px">${escapeHtml(company.name)}</h2>`);
    for (const section of sections) {
      textParts.push(
        `${section.heading}:\n${section.lines.length ? section.lines.map((line) => `- ${line.text}\n  ${line.href}`).join("\n") : `  ${section.empty}`}`,
      );
      htmlParts.push(
        `<h3 style="font-size:14px;margin-bottom:4px">${section.heading}</h3>`,
        section.lines.length
          ? `<ul>${section.lines.map((line) => `<li><a href="${escapeHtml(line.href)}">${escapeHtml(line.text)}</a></li>`).join("")}</ul>`
          : `<p style="color:#6b7280">${section.empty}</p>`,
      );
    }
  }
  return {
    subject: `Your weekly Quorum digest (week of ${message.weekOf})`,
    text: textParts.join("\n\n") + footer.text,
    html: page(htmlParts.join("\n"), footer.html),
    unsubscribeUrl,
    unsubscribeKey: unsubscribeUrl ? "emailDigest" : null,
  };
}
