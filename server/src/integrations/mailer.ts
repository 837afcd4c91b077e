import nodemailer, { type Transporter } from "nodemailer";
import { serviceNames } from "../../../shared/platform";
import type { Database } from "../db/client";
import { findEnabledServiceCredentials } from "./service-credentials";

/**
 * The e-mail service as an adapter: SMTP through nodemailer, configured by the enabled platform service named
 * "SendGrid". Its URL is `smtp://user@host:port` (STARTTLS when the server offers it) or `smtps://user@host:port`
 * (TLS from the first byte); its key is the SMTP password. With no URL, SendGrid's relay with the user `apikey`.
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

export function openMailTransport(config: SmtpConfig, options: { timeoutMs?: number } = {}): MailTransport {
  const timeout = options.timeoutMs ?? 30_000;
  const transporter: Transporter = nodemailer.createTransport({
    host: config.host,
    port: config.port,
    secure: config.secure,
    auth: { user: config.user, pass: config.password },
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  return {
    async send(mail) {
      await transporter.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        headers: mail.headers,
      });
    },
    close: () => transporter.close(),
  };
}
