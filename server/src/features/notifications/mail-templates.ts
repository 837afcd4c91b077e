import { notificationKinds, type NotificationKind } from "../../../../shared/preferences";
import { formatUtc } from "../../clock";
import { linkWithToken } from "../../crypto/link-token";
import { renderDigest, type DigestMessage } from "./mail-digest";
import { appLink, escapeHtml, linkMail, page, subjectLine, unsubscribeParts, type RenderedMail, type RenderLinks } from "./mail-layout";

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

export type OutboxMessage =
  | NotificationMessage
  | InvitationMessage
  | DigestMessage
  | VerifyEmailMessage
  | PasswordResetMessage
  | SecurityMessage
  | PlatformServiceMessage;

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
