import { reauthRequiredCode } from "../../../shared/api-error";
import { reauthLifetimeMs } from "../../../shared/identity";
import type { Clock } from "../clock";
import { HttpError } from "./errors";
import type { AuthContext } from "./request-context";

export const reauthRequiredMessage = "Confirm it's you: enter your password (and a code from your app) to make this change.";

/** 401 with `code: "reauth_required"`: the client asks for the password (and code), proves the session, and retries. */
export const reauthRequired = () => new HttpError(401, reauthRequiredMessage, {}, undefined, reauthRequiredCode);

/**
 * A security change (a second factor added or removed, the e-mail or password changed, a company's two-factor
 * requirement turned off) needs a session that re-proved its holder in the last 10 minutes; a sign-in alone does not
 * count, so a stolen token cannot make itself permanent.
 */
export function assertFreshProof(clock: Clock, auth: Pick<AuthContext, "reauthAt">): void {
  const age = auth.reauthAt === null ? Infinity : clock.now().getTime() - auth.reauthAt.getTime();
  if (!(age >= 0 && age < reauthLifetimeMs)) throw reauthRequired();
}
