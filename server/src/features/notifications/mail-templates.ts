import { notificationKinds, type NotificationKind, type PreferenceKey } from "../../../../shared/preferences";
import { formatUtc } from "../../clock";
import { linkWithToken } from "../../crypto/link-token";

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
  /** The link's token, sealed with the app's secret (the outbox never holds it readable); absent in mails queued before links. */
  sealedToken?: string;
  expiresAt?: string;
}

/** A link that proves an address: a registration's, or a new address asked for (`change`). */
export interface VerifyEmailMessage {
  type: "verify-email";
  address: string;
  /** The account the address would be proved for, named so that its receiver can tell whether it is theirs. */
  username: string;
  change: boolean;
  sealedToken: string;
}

export interface PasswordResetMessage {
  type: "password-reset";
  sealedToken: string;
}

/** A change to the account's security, told to its holder (for an e-mail change, at the old address). */
export interface SecurityMessage {
  type: "security";
  /** What happened, one sentence: "Your password was changed." */
  event: string;
  /** When, ISO. */
  at: string;
}

/** A change to one of the platform's outside services, told to every platform admin. Never holds a key. */
export interface PlatformServiceMessage {
  type: "platform-service";
  /** What happened, one sentence: "alice updated the service “OpenAI” (changed: serviceUrl, serviceKey)." */
  event: string;
  /** When, ISO. */
  at: string;
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

export type OutboxMessage =
  | NotificationMessage
  | InvitationMessage
  | DigestMessage
  | VerifyEmailMessage
  | PasswordResetMessage
  | SecurityMessage
  | PlatformServiceMessage;

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
  /** Opens a token sealed with the app's secret (a link's token), at the moment the mail is sent. */
  unsealToken: (sealed: string) => string;
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

/** A mail whose whole point is one link: a heading, paragraphs, the link as a button, and a closing line. */
function linkMail(
  subject: string,
  heading: string,
  paragraphs: string[],
  action: { label: string; href: string },
  closing: string,
): RenderedMail {
  const text = [...paragraphs, `${action.label}: ${action.href}`, closing].filter(Boolean).join("\n\n");
  const html = page(
    [
      `<h1 style="font-size:18px">${escapeHtml(heading)}</h1>`,
      ...paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, "<br>")}</p>`),
      `<p><a href="${escapeHtml(action.href)}">${escapeHtml(action.label)}</a></p>`,
      closing ? `<p style="color:#6b7280">${escapeHtml(closing)}</p>` : "",
    ].join("\n"),
    "",
  );
  return { subject: subjectLine(subject), text, html, unsubscribeUrl: null, unsubscribeKey: null };
}

export function renderInvitation(message: InvitationMessage, links: RenderLinks): RenderedMail {
  const intro = `${message.inviterName} invited you to join ${message.companyName} on Quorum as ${message.role}.`;
  const href = message.sealedToken
    ? linkWithToken(links.appUrl, "/invite", links.unsealToken(message.sealedToken))
    : `${links.appUrl.replace(/\/+$/, "")}/login`;
  const expires = message.expiresAt ? `The link works once, until ${formatUtc(message.expiresAt)}.` : "";
  return linkMail(
    `Invitation to join ${message.companyName} on Quorum`,
    `You're invited to ${message.companyName}`,
    [
      intro,
      message.invitationMessage ?? "",
      `It was sent to ${message.email}. Open the link to accept it, or to create your account and join.`,
    ],
    { label: "Accept the invitation", href },
    [expires, "If you did not expect it, ignore this e-mail: nothing happens unless you accept."].filter(Boolean).join(" "),
  );
}

export function renderVerifyEmail(message: VerifyEmailMessage, links: RenderLinks): RenderedMail {
  const href = linkWithToken(links.appUrl, "/verify-email", links.unsealToken(message.sealedToken));
  return linkMail(
    "Confirm your e-mail address for Quorum",
    "Confirm your e-mail address",
    [
      message.change
        ? `You asked to use ${message.address} for the Quorum account with the username ${message.username}. It replaces your current address once you confirm it.`
        : `Confirm that ${message.address} is yours, for the Quorum account with the username ${message.username}, so that boards can invite you and Quorum can reach you.`,
    ],
    { label: "Confirm my address", href },
    `The link works once, for 24 hours. ${
      message.change ? "If you did not ask for this" : "If you did not create this account"
    }, ignore this e-mail: nothing happens unless you confirm.`,
  );
}

export function renderPasswordReset(message: PasswordResetMessage, links: RenderLinks): RenderedMail {
  const href = linkWithToken(links.appUrl, "/reset-password", links.unsealToken(message.sealedToken));
  return linkMail(
    "Reset your Quorum password",
    "Reset your password",
    [
      "Someone asked to reset the password of your Quorum account. Choose a new one with this link; every device signed in to your account is signed out.",
    ],
    { label: "Choose a new password", href },
    "The link works once, for 30 minutes. If you did not ask for it, ignore this e-mail: your password stays as it is.",
  );
}

export function renderSecurity(message: SecurityMessage, links: RenderLinks): RenderedMail {
  const settings = `${links.appUrl.replace(/\/+$/, "")}/settings`;
  return linkMail(
    "Security alert for your Quorum account",
    "A change to your account's security",
    [`${message.event} (${formatUtc(message.at)})`, "If this was you, there is nothing to do."],
    { label: "Review your security settings", href: settings },
    "If it was not you, reset your password at once and sign out your other sessions.",
  );
}

export function renderPlatformService(message: PlatformServiceMessage, links: RenderLinks): RenderedMail {
  const settings = `${links.appUrl.replace(/\/+$/, "")}/platform-settings`;
  return linkMail(
    "A platform service was changed on Quorum",
    "A change to the platform's services",
    [`${message.event} (${formatUtc(message.at)})`, "Every platform administrator gets this message."],
    { label: "Review the platform services", href: settings },
    "If nobody meant this change, undo it, enter the keys again and sign out the administrator's sessions.",
  );
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
    case "verify-email":
      return renderVerifyEmail(message, links);
    case "password-reset":
      return renderPasswordReset(message, links);
    case "security":
      return renderSecurity(message, links);
    case "platform-service":
      return renderPlatformService(message, links);
  }
}
