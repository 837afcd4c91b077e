import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

// A real SMTP server in the test's own process, and how to read what it got: no database or app of its own, so the
// server tests (test-smtp.ts) and the browser tests both read real mail through it and follow its links.

/** A message as the SMTP server got it over the wire. */
export interface ReceivedMail {
  to: string[];
  raw: string;
  subject: string;
  /** The plain-text part, quoted-printable undone. */
  text: string;
}

/** The decoded body of the MIME part of this content type (quoted-printable undone). */
export function mimePart(raw: string, contentType: string): string | null {
  const boundary = /boundary="([^"]+)"/.exec(raw)?.[1];
  if (!boundary) return null;
  for (const section of raw.split(`--${boundary}`)) {
    const split = section.indexOf("\r\n\r\n");
    if (split < 0 || !new RegExp(`Content-Type: ${contentType}`, "i").test(section.slice(0, split))) continue;
    const body = section.slice(split + 4).replace(/\r\n$/, "");
    // Quoted-printable escapes bytes: undo them as bytes, then read the whole as UTF-8 ("••" is six of them).
    const bytes = body.replace(/=\r\n/g, "").replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, "latin1").toString("utf8");
  }
  return null;
}

/** A header's value, folded lines joined; "" when absent. */
export function headerOf(raw: string, name: string): string {
  const headers = raw.slice(0, raw.indexOf("\r\n\r\n")).replace(/\r\n[ \t]+/g, " ");
  return new RegExp(`^${name}: (.*)$`, "mi").exec(headers)?.[1]?.trim() ?? "";
}

/** A real SMTP server on a free port of this process, keeping every message it receives. */
export async function startSmtpCapture(): Promise<{
  received: ReceivedMail[];
  /** The user names that authenticated, in order: a client that never sent AUTH leaves it empty. */
  authenticated: string[];
  port: number;
  close: () => Promise<void>;
}> {
  const received: ReceivedMail[] = [];
  const authenticated: string[] = [];
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      authenticated.push(auth.username ?? "");
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        received.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw,
          subject: headerOf(raw, "Subject"),
          text: mimePart(raw, "text/plain") ?? "",
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    received,
    authenticated,
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The token of the first link in a mail to this page (`/invite`, `/verify-email`, `/reset-password`), or throws. */
export function linkTokenIn(mail: ReceivedMail, page: string): string {
  const match = new RegExp(`https?://[^\\s"<>]+${page.replace(/[/]/g, "\\/")}\\?token=([\\w%-]+)`).exec(mail.text);
  if (!match) throw new Error(`no ${page} link in the mail "${mail.subject}": ${mail.text.slice(0, 400)}`);
  return decodeURIComponent(match[1]!);
}
