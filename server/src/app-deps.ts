import type { Logger } from "pino";
import type { Clock } from "./clock";
import type { Database } from "./db/client";
import type { LiveBus } from "./db/live-bus";
import type { CompanyListCache } from "./db/company-list-cache";
import type { Guards } from "./http/guards";
import type { AiSettings } from "./integrations/ai-chat";
import type { MailSettings } from "./integrations/mailer";
import type { OutboundPolicy } from "./integrations/outbound-address";
import type { Limits } from "./limits";

/** Everything the app needs from outside; tests pass their own. */
export interface AppDeps {
  db: Database;
  /** The instance's listening connection: what other instances (and this one) changed. */
  live: LiveBus;
  clock: Clock;
  logger: Logger;
  /** Keys the encryption of stored service keys (AES-256-GCM). */
  appSecret: string;
  /** Usernames that are platform admins by configuration (PLATFORM_ADMINS). */
  platformAdmins: readonly string[];
  ai: AiSettings;
  /** Where calls to configured services may connect: OUTBOUND_ALLOWED_HOSTS, and the resolver (tests inject one). */
  outbound: OutboundPolicy;
  /** The e-mail sender (MAIL_FROM) and the app's address for links in e-mails; defaults when unset. */
  mail?: MailSettings;
  /**
   * Express's "trust proxy" (TRUST_PROXY): behind a load balancer, req.ip must be the client's address
   * (the per-IP sign-in limit) and req.secure must see https (the cookie's Secure flag).
   */
  trustProxy?: boolean | number | string;
  /** The limits on whatever costs (server/src/limits.ts); the defaults when unset. */
  limits?: Limits;
  /** The built SPA; unset in API-only tests. */
  staticDir?: string;
  /** Tests set this: each answer that breaks its endpoint's declared schema is reported here (http/endpoints.ts). */
  checkAnswers?: (problem: string) => void;
}

/**
 * The convention for services: an exported service function takes the part of AppDeps it uses,
 * `ServiceDeps<"db" | "clock">`, as its first argument, and a route passes its whole deps; so a service that
 * needs one more dependency changes its own signature, not its callers. A helper that may run inside a
 * caller's transaction takes that transaction (`Queryable`) instead.
 */
export type ServiceDeps<Keys extends keyof AppDeps> = Pick<AppDeps, Keys>;

/** What each feature router receives. */
export interface RouterDeps extends AppDeps {
  guards: Guards;
  /** The company lists this instance keeps until they change. */
  lists: CompanyListCache;
}
