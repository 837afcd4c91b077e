import type { PreferenceKey } from "../../../../shared/preferences";
import { escapeHtml } from "../../http/escape-html";

/** The parts every mail is built from: its rendered form, the links it is given, and the page it is laid out on. */
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

export { escapeHtml };

/** A link inside the app as an absolute address; anything that is not a path inside the app is dropped. */
export function appLink(appUrl: string, link: string | null): string | null {
  if (!link || !link.startsWith("/") || link.startsWith("//")) return null;
  return `${appUrl.replace(/\/+$/, "")}${link}`;
}

/** One line with no line breaks, for a subject header. */
export function subjectLine(value: string): string {
  return value
    .replace(/[\r\n\t]+/g, " ")
    .trim()
    .slice(0, 200);
}

export function page(inner: string, footer: string): string {
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

export function unsubscribeParts(url: string | null, key: PreferenceKey): { text: string; html: string } {
  if (!url) return { text: "", html: "" };
  const label = switchLabels[key];
  return {
    text: `\n\n--\nYou get this because "${label}" is on in your settings. Turn it off: ${url}`,
    html: `You get this because &quot;${escapeHtml(label)}&quot; is on in your settings. <a href="${escapeHtml(url)}">Unsubscribe</a>`,
  };
}

/** A mail whose whole point is one link: a heading, paragraphs, the link as a button, and a closing line. */
export function linkMail(
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
