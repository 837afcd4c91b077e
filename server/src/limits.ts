import type { Clock } from "./clock";
import type { Queryable } from "./db/client";
import { countAgainstLimits, type RateLimit } from "./http/rate-limit";

/**
 * Limits on whatever costs the server (or its mail sender, or a paid AI service) something per request: the one table
 * of them. Each has its default, the environment variable that changes it and, when it counts events in a window,
 * the window and the 429's message. LIMITS_MULTIPLIER multiplies every count at once (load tests and CI raise them).
 */
const minuteMs = 60_000;
const hourMs = 60 * minuteMs;
const dayMs = 24 * hourMs;

interface LimitSpec {
  /** What is counted, for the table of limits in docs/operations.md. */
  what: string;
  count: number;
  env: string;
  /** The window events count in; none for a limit on things held at once. */
  windowMs?: number;
  message: string;
}

export const limitTable = {
  registrationsPerIp: {
    what: "Registrations from one IP address",
    count: 20,
    windowMs: hourMs,
    env: "LIMIT_REGISTRATIONS_PER_IP_HOUR",
    message: "Too many accounts were registered from your network in the last hour. Try again later.",
  },
  passwordResetsPerAddress: {
    // Keyed per address and IP: a stranger asking for someone's address cannot use up its holder's own requests.
    what: "Password-reset requests for one address from one IP address",
    count: 10,
    windowMs: dayMs,
    env: "LIMIT_PASSWORD_RESETS_PER_ADDRESS_DAY",
    message: "Too many password resets were asked for this address today. Try again later.",
  },
  passwordResetMailsPerAddress: {
    // Past it a request is answered as usual (202) and no mail is sent: a stranger's requests never get the holder
    // told 429, and the address is not flooded from many networks. Whoever asks tomorrow gets the link again.
    what: "Password-reset mails to one address, whoever asks; past it a request is answered as usual and nothing is sent",
    count: 30,
    windowMs: dayMs,
    env: "LIMIT_PASSWORD_RESET_MAILS_PER_ADDRESS_DAY",
    message: "",
  },
  passwordResetsPerIp: {
    what: "Password-reset requests from one IP address",
    count: 20,
    windowMs: hourMs,
    env: "LIMIT_PASSWORD_RESETS_PER_IP_HOUR",
    message: "Too many password resets were asked for. Try again later.",
  },
  verificationMailsPerAddress: {
    // Keyed per requester (an account, or the IP of a registration) and address: someone who asks to move their
    // account to another's address does not use up the confirmation mails of the address's holder.
    what: "Confirmation e-mails to one address asked for by one account (or, registering, one IP address)",
    count: 10,
    windowMs: dayMs,
    env: "LIMIT_VERIFICATION_MAILS_PER_ADDRESS_DAY",
    message: "Too many confirmation e-mails were sent to this address today. Try again later.",
  },
  invitationsPerCompany: {
    what: "Invitation e-mails one company sends (new and resent)",
    count: 200,
    windowMs: dayMs,
    env: "LIMIT_INVITATIONS_PER_COMPANY_DAY",
    message: "This company has sent as many invitations as it may today. Try again tomorrow.",
  },
  invitationsPerAddress: {
    // Keyed per company and address: a stranger's company inviting someone does not use up what their own board may
    // send them. What one account sends in all is bounded by invitationsPerInviter.
    what: "Invitation e-mails from one company to one address",
    count: 10,
    windowMs: dayMs,
    env: "LIMIT_INVITATIONS_PER_ADDRESS_DAY",
    message: "This company has invited this address as often as it may today. Try again tomorrow.",
  },
  invitationsPerInviter: {
    what: "Invitation e-mails one user sends, from all their companies (new and resent)",
    count: 50,
    windowMs: dayMs,
    env: "LIMIT_INVITATIONS_PER_INVITER_DAY",
    message: "You have sent as many invitations as you may today. Try again tomorrow.",
  },
  companiesPerUser: {
    // Limits kept per company would otherwise be multiplied by founding companies.
    what: "Companies one user founds",
    count: 5,
    windowMs: dayMs,
    env: "LIMIT_COMPANIES_PER_USER_DAY",
    message: "You have founded as many companies as you may today. Try again tomorrow.",
  },
  aiCallsPerCompany: {
    what: "AI calls of one company (agenda drafts and “Improve wording”)",
    count: 60,
    windowMs: hourMs,
    env: "LIMIT_AI_CALLS_PER_COMPANY_HOUR",
    message: "This company has asked the AI service as often as it may this hour. Try again later.",
  },
  aiCallsPerUser: {
    what: "AI calls of one user, in all their companies",
    count: 60,
    windowMs: hourMs,
    env: "LIMIT_AI_CALLS_PER_USER_HOUR",
    message: "You have asked the AI service as often as you may this hour. Try again later.",
  },
  searchesPerUser: {
    // Each search reads the words of every paper, minute and resolution the caller may see: bounded like the AI's calls.
    what: "Searches of one user, in all their companies",
    count: 60,
    windowMs: minuteMs,
    env: "LIMIT_SEARCHES_PER_USER_MINUTE",
    message: "You have searched as often as you may this minute. Try again in a moment.",
  },
  eventStreamsPerUser: {
    what: "Live update streams one user holds open at once, across their sessions (per server instance)",
    count: 20,
    env: "LIMIT_EVENT_STREAMS_PER_USER",
    message: "Too many live update streams are open for your account; close a tab and try again.",
  },
  sessionsPerUser: {
    what: "Sessions one user holds; a sign-in beyond it ends the oldest",
    count: 50,
    env: "LIMIT_SESSIONS_PER_USER",
    message: "",
  },
} as const satisfies Record<string, LimitSpec>;

export type LimitName = keyof typeof limitTable;
export type LimitEnvName = (typeof limitTable)[LimitName]["env"];

/** The counts in force, one per limit. */
export type Limits = Record<LimitName, number>;

const limitNames = Object.keys(limitTable) as LimitName[];
export const limitEnvNames = limitNames.map((name) => limitTable[name].env);

/** The counts from the given ones (the defaults for the others), each multiplied and at least 1. */
export function resolveLimits(counts: Partial<Limits> = {}, multiplier = 1): Limits {
  const resolved = {} as Limits;
  for (const name of limitNames) resolved[name] = Math.max(1, Math.round((counts[name] ?? limitTable[name].count) * multiplier));
  return resolved;
}

export const defaultLimits: Limits = resolveLimits();

/** The counts the environment sets (LIMIT_… variables, then LIMITS_MULTIPLIER over all). */
export function limitsFromEnv(env: Partial<Record<LimitEnvName, number | undefined>> & { LIMITS_MULTIPLIER: number }): Limits {
  const counts: Partial<Limits> = {};
  for (const name of limitNames) {
    const value = env[limitTable[name].env];
    if (value !== undefined) counts[name] = value;
  }
  return resolveLimits(counts, env.LIMITS_MULTIPLIER);
}

/** A count in force: the app's, or the default when it was given none. */
export function limitOf(deps: { limits?: Limits }, name: LimitName): number {
  return (deps.limits ?? defaultLimits)[name];
}

type WindowedLimit = { [K in LimitName]: (typeof limitTable)[K] extends { windowMs: number } ? K : never }[LimitName];

/** The rule countAgainstLimit applies for a windowed limit, with the count in force. */
export function rateRule(deps: { limits?: Limits }, name: WindowedLimit): RateLimit {
  const spec = limitTable[name];
  return { bucket: name, limit: limitOf(deps, name), windowMs: spec.windowMs, message: spec.message };
}

/**
 * One call to the paid AI service (an agenda draft, "Improve wording"), counted against the company's and the
 * asker's hourly limits together: past either, 429 with Retry-After and neither is counted.
 */
export function countAiCall(
  deps: { db: Queryable; clock: Clock; limits?: Limits },
  asker: { companyId: number; userId: number },
): Promise<void> {
  return countAgainstLimits(deps.db, deps.clock, [
    { rule: rateRule(deps, "aiCallsPerCompany"), key: String(asker.companyId) },
    { rule: rateRule(deps, "aiCallsPerUser"), key: String(asker.userId) },
  ]);
}
