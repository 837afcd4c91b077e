import type { Transporter } from "nodemailer";
import { serviceNames } from "../../../shared/platform";
import type { Database } from "../db/client";
import { checkTarget, resolveChecked, type OutboundPolicy } from "./outbound-address";
import { findEnabledServiceCredentials } from "./service-credentials";

/**
 * The e-mail service as an adapter: SMTP through nodemailer, configured by the enabled platform service named
 * "SendGrid". Its URL is `smtp://user@host:port` (STARTTLS, required unless the host is listed in
 * OUTBOUND_ALLOWED_HOSTS) or `smtps://user@host:port` (TLS from the first byte); its key is the SMTP password.
 * With no URL, SendGrid's relay with the user `apikey`.
 * It knows nothing of what a message says or who should get one.
 */
export const defaultSmtpUrl = "smtp://apikey@smtp.sendgrid.net:587";

/** What the environment says about mail: the sender (MAIL_FROM) and the app's public address for links. */
export interface MailSettings {
  from: string;
  /** The address people open the app at, without a trailing slash (links in e-mails). */
  appUrl: string;
}

export const defaultMailSettings: MailSettings = { from: "Quorum <no-reply@localhost>", appUrl: "http://127.0.0.1:5000" };

export interface SmtpConfig {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  password: string;
}

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

/** Why the e-mail service cannot be used: its URL is not an smtp(s) URL, or its key cannot be decrypted. */
export class MailConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MailConfigError";
  }
}

/** An `smtp(s)://user@host:port` URL and the key as the password; the port defaults to 587 (smtp) or 465 (smtps). */
export function parseSmtpUrl(url: string | null | undefined, password: string): SmtpConfig {
  let parsed: URL;
  try {
    parsed = new URL(url?.trim() || defaultSmtpUrl);
  } catch {
    throw new MailConfigError("The e-mail service URL is not a valid smtp:// or smtps:// URL");
  }
  if (parsed.protocol !== "smtp:" && parsed.protocol !== "smtps:") {
    throw new MailConfigError("The e-mail service URL must start with smtp:// or smtps://");
  }
  if (!parsed.hostname) throw new MailConfigError("The e-mail service URL has no host");
  const secure = parsed.protocol === "smtps:";
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, ""),
    port: parsed.port ? Number(parsed.port) : secure ? 465 : 587,
    secure,
    user: decodeURIComponent(parsed.username) || "apikey",
    password,
  };
}

/** The enabled "SendGrid" service's SMTP settings, or null when there is none. */
export async function resolveSmtpConfig(db: Database, appSecret: string): Promise<SmtpConfig | null> {
  let stored;
  try {
    stored = await findEnabledServiceCredentials(db, appSecret, serviceNames.email);
  } catch {
    throw new MailConfigError("The stored e-mail service key cannot be decrypted with this APP_SECRET");
  }
  return stored ? parseSmtpUrl(stored.url, stored.key) : null;
}

/** One SMTP connection pool for a batch of messages; close it when the batch is done. */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/**
 * The nodemailer options for one checked address. Off the allow-list, STARTTLS is required: a server (or whoever
 * sits between) that does not offer it gets no AUTH, so the password never crosses the wire in the clear.
 * The socket connects to `address` (checked already), while TLS checks the certificate against the host's name.
 */
function transportOptions(config: SmtpConfig, address: string, allowListed: boolean, timeout: number) {
  return {
    host: address,
    ...(address !== config.host ? { servername: config.host } : {}),
    port: config.port,
    secure: config.secure,
    requireTLS: !config.secure && !allowListed,
    auth: { user: config.user, pass: config.password },
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  };
}

/**
 * Opens the transport lazily: the first send resolves the host and checks its address (a private one only for an
 * allow-listed host) before anything connects; the batch then uses that address.
 */
export function openMailTransport(config: SmtpConfig, options: { outbound: OutboundPolicy; timeoutMs?: number }): MailTransport {
  const timeout = options.timeoutMs ?? 30_000;
  let transporter: Promise<Transporter> | null = null;
  const open = async (): Promise<Transporter> => {
    const target = checkTarget(options.outbound, config.host, config.port);
    const [first] = await resolveChecked(options.outbound, config.host, target.allowListed);
    // Loaded at the first message sent, not at start-up (tens of milliseconds of CPU).
    const { default: nodemailer } = await import("nodemailer");
    return nodemailer.createTransport(transportOptions(config, first!.address, target.allowListed, timeout));
  };
  return {
    async send(mail) {
      transporter ??= open();
      await (
        await transporter
      ).sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        headers: mail.headers,
      });
    },
    close: () => {
      void transporter?.then((opened) => opened.close()).catch(() => undefined);
    },
  };
}
