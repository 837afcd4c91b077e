import type { Clock } from "../../clock";
import type { Queryable } from "../../db/client";
import { enqueueMail } from "../notifications/outbox.service";

/**
 * Tells an account's holder, by e-mail, of a change to its security, in the caller's transaction: if it was not
 * them, they learn of it while they can still act. An account whose address was taken from it has none to tell.
 */
export async function tellAccountHolder(tx: Queryable, clock: Clock, account: { id: number; email: string }, event: string): Promise<void> {
  if (account.email === "") return;
  await enqueueMail(tx, [
    { userId: account.id, companyId: null, to: account.email, message: { type: "security", event, at: clock.now().toISOString() } },
  ]);
}
