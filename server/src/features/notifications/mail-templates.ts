import { notificationKinds, type NotificationKind, type PreferenceKey } from "../../../../shared/preferences";
import { formatUtc } from "../../clock";

/**
 * What an outbox row says, stored as data and rendered when the message is sent (so links use the app's
 * address at that moment). Every renderer here is pure: the same message gives the same e-mail.
 */
export interface NotificationMessage {
  type: "notification";
  kind: NotificationKind;
  title: string;
  body: string | null;
  link: string | null;
}

export interface InvitationMessage {
  type: "invitation";
  companyName: string;
  inviterName: string;
  role: string;
  email: string;
  invitationMessage: string | null;
}

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

export type OutboxMessage = NotificationMessage | InvitationMessage | DigestMessage;

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  /** The link to the page that turns the switch silencing this message off, when there is one. */
  unsubscribeUrl: string | null;
  /** The switch silencing this message (for the one-click unsubscribe headers), when there is one. */
  unsubscribeKey: PreferenceKey | null;
}

export interface RenderLinks {
  appUrl: string;
  /** The unsubscribe page's link for a switch (a signed token for this message's recipient). */
  unsubscribeUrl: (key: PreferenceKey) => string | null;
}

/** The switches as Settings names them. */
export const switchLabels: Record<PreferenceKey, string> = {
  meetingReminders: "Meeting Reminders",
  documentUpdates: "Document Updates",
  resolutionVoting: "Resolution Voting",
  boardMemberUpdates: "Board Member Updates",
  emailDigest: "Email Digest",
  darkMode: "Dark Mode",
  compactView: "Compact View",
  autoSaveDrafts: "Auto-save Drafts",
  showTooltips: "Show Tooltips",
};

export function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** A link inside the app as an absolute address; anything that is not a path inside the app is dropped. */
function appLink(appUrl: string, link: string | null): string | null {
  if (!link || !link.startsWith("/") || link.startsWith("//")) return null;
  return `${appUrl.replace(/\/+$/, "")}${link}`;
}

/** One line with no line breaks, for a subject header. */
function subjectLine(value: string): string {
  return value
    .replace(/[\r\n\t]+/g, " ")
    .trim()
    .slice(0, 200);
}

function page(inner: string, footer: string): string {
  return [
    "<!doctype html>",
    '<html><body style="font-family:Arial,Helvetica,sans-serif;color:#111827;line-height:1.5">',
    inner,
    footer
      ? `<hr style="border:none;border-top:1px solid #e5e7eb;margin:24px 0 12px"><p style="font-size:12px;color:#6b7280">${footer}</p>`
      : "",
    "</body></html>",
  ].join("\n");
}

function unsubscribeParts(url: string | null, key: PreferenceKey): { text: string; html: string } {
  if (!url) return { text: "", html: "" };
  const label = switchLabels[key];
  return {
    text: `\n\n--\nYou get this because "${label}" is on in your settings. Turn it off: ${url}`,
    html: `You get this because &quot;${escapeHtml(label)}&quot; is on in your settings. <a href="${escapeHtml(url)}">Unsubscribe</a>`,
  };
}

export function renderNotification(message: NotificationMessage, links: RenderLinks): RenderedMail {
  const key = notificationKinds[message.kind];
  const unsubscribeUrl = key ? links.unsubscribeUrl(key) : null;
  const open = appLink(links.appUrl, message.link);
  const footer = unsubscribeParts(unsubscribeUrl, key);
  const text = [message.title, message.body ?? "", open ? `Open in Quorum: ${open}` : ""].filter(Boolean).join("\n\n") + footer.text;
  const html = page(
    [
      `<h1 style="font-size:18px">${escapeHtml(message.title)}</h1>`,
      message.body ? `<p>${escapeHtml(message.body)}</p>` : "",
      open ? `<p><a href="${escapeHtml(open)}">Open in Quorum</a></p>` : "",
    ].join("\n"),
    footer.html,
  );
  return { subject: subjectLine(message.title), text, html, unsubscribeUrl, unsubscribeKey: unsubscribeUrl ? key : null };
}

export function renderInvitation(message: InvitationMessage, links: RenderLinks): RenderedMail {
  const register = `${links.appUrl.replace(/\/+$/, "")}/register`;
  const intro = `${message.inviterName} invited you to join ${message.companyName} on Quorum as ${message.role}.`;
  const how = `Create your account with this e-mail address (${message.email}) and you join the board at once: ${register}`;
  const text = [intro, message.invitationMessage ?? "", how].filter(Boolean).join("\n\n");
  const html = page(
    [
      `<h1 style="font-size:18px">You're invited to ${escapeHtml(message.companyName)}</h1>`,
      `<p>${escapeHtml(intro)}</p>`,
      message.invitationMessage
        ? `<blockquote style="margin:0;padding-left:12px;border-left:3px solid #e5e7eb">${escapeHtml(message.invitationMessage).replace(/\n/g, "<br>")}</blockquote>`
        : "",
      `<p>Create your account with this e-mail address (${escapeHtml(message.email)}) and you join the board at once.</p>`,
      `<p><a href="${escapeHtml(register)}">Create your account</a></p>`,
    ].join("\n"),
    "",
  );
  return {
    subject: subjectLine(`Invitation to join ${message.companyName} on Quorum`),
    text,
    html,
    unsubscribeUrl: null,
    unsubscribeKey: null,
  };
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

export function renderMail(message: OutboxMessage, links: RenderLinks): RenderedMail {
  switch (message.type) {
    case "notification":
      return renderNotification(message, links);
    case "invitation":
      return renderInvitation(message, links);
    case "digest":
      return renderDigest(message, links);
  }
}
