import { and, asc, eq, inArray, isNull, lte, ne, or, sql } from "drizzle-orm";
import type { ServiceDeps } from "../../app-deps";
import type { Clock } from "../../clock";
import type { Queryable } from "../../db/client";
import { mailOutbox, users } from "../../db/schema";
import {
  MailConfigError,
  defaultMailSettings,
  openMailTransport,
  resolveSmtpConfig,
  type MailTransport,
  type SmtpConfig,
} from "../../integrations/mailer";
import type { OutboundPolicy } from "../../integrations/outbound-address";
import { renderMail, type OutboxMessage } from "./mail-templates";
import { decryptSecret, encryptSecret } from "../../integrations/secrets";
import { signUnsubscribeToken } from "./unsubscribe-token";

/** The reason kept on a row when no e-mail service is configured. */
export const noMailServiceReason = "not sent: no e-mail service";
/** Attempts before a message is given up as failed. */
export const maxMailAttempts = 6;
/** The wait before attempt n + 1 after n failures: 1, 2, 4, 8, 16 minutes. */
export function retryDelayMs(failedAttempts: number): number {
  return 60_000 * 2 ** Math.max(0, failedAttempts - 1);
}

/** What a weekly digest's message holds, for the job that builds it. */
export type { DigestCompany, DigestMessage } from "./mail-digest";

export interface QueuedMail {
  userId: number | null;
  companyId: number | null;
  to: string;
  message: OutboxMessage;
}

/** Queues e-mail in the caller's transaction, one insert for any number of messages; the worker sends it later. */
export async function enqueueMail(db: Queryable, items: QueuedMail[]): Promise<void> {
  if (items.length === 0) return;
  await db.insert(mailOutbox).values(
    items.map((item) => ({
      userId: item.userId,
      companyId: item.companyId,
      toAddress: item.to,
      message: item.message as unknown as Record<string, unknown>,
    })),
  );
}

type OutboxDeps = ServiceDeps<"db" | "clock" | "appSecret" | "logger" | "mail" | "outbound">;

export interface DrainOptions {
  /** Rows claimed per batch. */
  batchSize?: number;
  /** Opens the SMTP connection (tests may shorten timeouts). */
  openTransport?: (config: SmtpConfig, options: { outbound: OutboundPolicy }) => MailTransport;
}

export interface DrainResult {
  sent: number;
  retried: number;
  failed: number;
  notSent: number;
}

type OutboxRow = typeof mailOutbox.$inferSelect;

/**
 * Where an unsubscribe token leads: `page`, the app's page that asks before turning the switch off (the link in
 * the message), and `oneClick`, the address of the `List-Unsubscribe` header, which a mail program POSTs to
 * (one-click unsubscribe) and which, opened in a browser, leads to the same page.
 */
export function unsubscribeLinks(appUrl: string, token: string): { page: string; oneClick: string } {
  const base = appUrl.replace(/\/+$/, "");
  return { page: `${base}/unsubscribe?token=${token}`, oneClick: `${base}/api/unsubscribe?token=${token}` };
}

/**
 * Claims due pending rows for this worker alone: one statement that locks them with FOR UPDATE SKIP LOCKED
 * (rows another worker holds are skipped, never waited for) and moves them to "sending". A row in "sending"
 * is never claimed again, so no message goes out twice: one whose worker died mid-send stays in "sending".
 */
async function claimBatch({ db, clock }: ServiceDeps<"db" | "clock">, limit: number): Promise<OutboxRow[]> {
  const now = clock.now();
  const due = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.status, "pending"), or(isNull(mailOutbox.availableAt), lte(mailOutbox.availableAt, now))))
    .orderBy(asc(mailOutbox.id))
    .limit(limit)
    .for("update", { skipLocked: true });
  const rows = await db
    .update(mailOutbox)
    .set({ status: "sending", claimedAt: now, attempts: sql`${mailOutbox.attempts} + 1` })
    .where(and(inArray(mailOutbox.id, due), eq(mailOutbox.status, "pending")))
    .returning();
  return rows.sort((a, b) => a.id - b.id);
}

function errorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/[\r\n]+/g, " ").slice(0, 500);
}

/**
 * Sends what is due in the outbox, batch after batch until nothing due is left (or `maxBatches`): each row is
 * rendered, sent over SMTP and marked sent; a failed send goes back to pending with a backoff (given up as
 * failed after `maxMailAttempts`); with no e-mail service configured, claimed rows are kept as not sent, with the reason.
 */
export async function drainOutbox(deps: OutboxDeps, options: DrainOptions = {}, maxBatches = 20): Promise<DrainResult> {
  const result: DrainResult = { sent: 0, retried: 0, failed: 0, notSent: 0 };
  const batchSize = options.batchSize ?? 20;
  const mail = deps.mail ?? defaultMailSettings;
  let transport: MailTransport | null = null;
  try {
    for (let batch = 0; batch < maxBatches; batch += 1) {
      const rows = await claimBatch(deps, batchSize);
      if (rows.length === 0) break;

      let config: SmtpConfig | null;
      try {
        config = await resolveSmtpConfig(deps.db, deps.appSecret);
      } catch (error) {
        if (!(error instanceof MailConfigError)) {
          // Nothing was sent: hand the rows back untouched rather than leave them in "sending" for good.
          await deps.db
            .update(mailOutbox)
            .set({ status: "pending", attempts: sql`${mailOutbox.attempts} - 1` })
            .where(
              inArray(
                mailOutbox.id,
                rows.map((row) => row.id),
              ),
            );
          throw error;
        }
        // A misconfigured service may be fixed: retry later, with the reason.
        for (const row of rows) await failAttempt(deps, row, error.message, result);
        continue;
      }
      if (!config) {
        await deps.db
          .update(mailOutbox)
          .set({ status: "not_sent", lastError: noMailServiceReason })
          .where(
            inArray(
              mailOutbox.id,
              rows.map((row) => row.id),
            ),
          );
        result.notSent += rows.length;
        continue;
      }

      transport ??= (options.openTransport ?? openMailTransport)(config, { outbound: deps.outbound });
      for (const row of rows) {
        try {
          const rendered = renderMail(row.message as unknown as OutboxMessage, {
            appUrl: mail.appUrl,
            unsubscribeUrl: (key) =>
              row.userId == null ? null : unsubscribeLinks(mail.appUrl, signUnsubscribeToken(row.userId, key, deps.appSecret)).page,
            unsealToken: (sealed) => decryptSecret(sealed, deps.appSecret),
          });
          const oneClick =
            rendered.unsubscribeKey && row.userId != null
              ? unsubscribeLinks(mail.appUrl, signUnsubscribeToken(row.userId, rendered.unsubscribeKey, deps.appSecret)).oneClick
              : null;
          await transport.send({
            from: mail.from,
            to: row.toAddress,
            subject: rendered.subject,
            text: rendered.text,
            html: rendered.html,
            headers: oneClick ? { "List-Unsubscribe": `<${oneClick}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } : undefined,
          });
          await deps.db
            .update(mailOutbox)
            .set({ status: "sent", sentAt: deps.clock.now(), lastError: null })
            .where(eq(mailOutbox.id, row.id));
          result.sent += 1;
        } catch (error) {
          deps.logger.warn({ outboxId: row.id, attempts: row.attempts, reason: errorText(error) }, "sending an e-mail failed");
          await failAttempt(deps, row, errorText(error), result);
        }
      }
    }
  } finally {
    transport?.close();
  }
  return result;
}

async function failAttempt(deps: ServiceDeps<"db" | "clock">, row: OutboxRow, reason: string, result: DrainResult): Promise<void> {
  if (row.attempts >= maxMailAttempts) {
    await deps.db.update(mailOutbox).set({ status: "failed", lastError: reason }).where(eq(mailOutbox.id, row.id));
    result.failed += 1;
    return;
  }
  const availableAt = new Date(deps.clock.now().getTime() + retryDelayMs(row.attempts));
  await deps.db.update(mailOutbox).set({ status: "pending", availableAt, lastError: reason }).where(eq(mailOutbox.id, row.id));
  result.retried += 1;
}

/** A link's token as an outbox row keeps it until the mail is sent: sealed with the app's secret, never readable in the table. */
export function sealToken(token: string, appSecret: string): string {
  return encryptSecret(token, appSecret);
}

/**
 * Tells an account's holder, by e-mail, of a change to its security, in the caller's transaction: if it was not
 * them, they learn of it while they can still act. `email` is where to tell them (the old address, for an address
 * change); an account whose address was taken from it has none to tell, and one whose address was never proved
 * may be someone else's (whoever registered it would spam them).
 */
export async function tellAccountHolder(
  tx: Queryable,
  clock: Clock,
  account: { id: number; email: string; emailVerified: boolean },
  event: string,
): Promise<void> {
  if (account.email === "" || !account.emailVerified) return;
  await enqueueMail(tx, [
    { userId: account.id, companyId: null, to: account.email, message: { type: "security", event, at: clock.now().toISOString() } },
  ]);
}

/**
 * Tells every platform administrator, by e-mail, in the caller's transaction, that `actorId` did `what` to the
 * platform's outside services ("updated the service “OpenAI” (changed: serviceUrl)"): one admin cannot quietly
 * point a service, and its key, somewhere else. `what` never holds a key. Unproved addresses are skipped.
 */
export async function tellPlatformAdmins(tx: Queryable, clock: Clock, actorId: number, what: string): Promise<void> {
  const [actor] = await tx.select({ username: users.username }).from(users).where(eq(users.id, actorId));
  const admins = await tx
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(eq(users.isPlatformAdmin, true), eq(users.emailVerified, true), ne(users.email, "")));
  const event = `${actor?.username ?? "A platform administrator"} ${what}`;
  const at = clock.now().toISOString();
  await enqueueMail(
    tx,
    admins.map((admin) => ({ userId: admin.id, companyId: null, to: admin.email, message: { type: "platform-service", event, at } })),
  );
}
