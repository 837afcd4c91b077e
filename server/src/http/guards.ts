import { and, eq } from "drizzle-orm";
import type { Request, RequestHandler, Response } from "express";
import { can, canAdministerPlatform, deniedMessage, platformAdminDeniedMessage, type Permission } from "../../../shared/permissions";
import type { CompanyRole } from "../../../shared/roles";
import type { Clock } from "../clock";
import type { Database } from "../db/client";
import type { LiveBus } from "../db/live-bus";
import { companies, memberships } from "../db/schema";
import { HttpError, forbidden, notFound, secondFactorRequired, unauthorized } from "./errors";
import type { AuthContext, TenantContext } from "./request-context";
import { createSessionCache, readSessionToken, resolveSession } from "./session";
import { parseId } from "../../../shared/input";
import { idParam } from "./validate";

/** Why a member without a second factor is refused everything of a company that requires one. */
export const companySecondFactorMessage =
  "This company requires two-factor sign-in. Set up an authenticator app or a passkey in Settings → Security to continue.";

/** Why a member whose account has a second factor, but whose session did not pass it, is refused such a company. */
export const sessionSecondFactorMessage =
  "This company requires two-factor sign-in. Sign out, then sign in again with your authenticator app or passkey to continue.";

/**
 * A company that requires a second factor asks whether this session passed one, not whether the account has one:
 * a session that signed in some other way (or before a factor was added) is refused, with a message that tells
 * whoever has a factor to sign in with it, and anyone else to set one up.
 */
export function assertSessionPassedSecondFactor(
  requiresSecondFactor: boolean,
  session: { passedSecondFactor: boolean; accountHasSecondFactor: boolean },
): void {
  if (!requiresSecondFactor || session.passedSecondFactor) return;
  throw secondFactorRequired(session.accountHasSecondFactor ? sessionSecondFactorMessage : companySecondFactorMessage);
}

/** The session's standing for `assertSessionPassedSecondFactor`. */
export const secondFactorStandingOf = (auth: Pick<AuthContext, "user" | "secondFactorAt">) => ({
  passedSecondFactor: auth.secondFactorAt !== null,
  accountHasSecondFactor: auth.user.secondFactor,
});

/** Where a route's company comes from. */
export type CompanySource =
  /** A path parameter naming the company (e.g. "companyId"): a non-member gets 403. */
  | { from: "param"; param: string }
  /** The caller's active company. */
  | { from: "active" }
  /** A thing loaded by id: the loader returns its company id, or null when there is no such thing. A non-member gets 404. */
  | { from: "thing"; companyOf: (req: Request) => Promise<number | null> };

export interface CompanyMemberOptions {
  /** The capability the route needs: a member whose role lacks it gets 403 with that capability's message. */
  permission?: Permission;
  company?: CompanySource;
}

/** The caller, as set by requireAuth. Throws 401 if a route forgot the guard (fail closed). */
export function authOf(req: Request): AuthContext {
  if (!req.auth) throw unauthorized();
  return req.auth;
}

/** Refuses (403, with the capability's own message) a company role that lacks the capability. */
export function assertPermission(role: CompanyRole, permission: Permission): void {
  if (!can(role, permission)) throw forbidden(deniedMessage(permission));
}

/** The company context, as set by requireCompanyMember. Throws 403 if a route forgot the guard (fail closed). */
export function tenantOf(req: Request): TenantContext {
  if (!req.tenant) throw forbidden();
  return req.tenant;
}

export type Guards = ReturnType<typeof createGuards>;

/**
 * The one guard module: `mountRoutes` (endpoints.ts) picks each route's guards from its declaration's access
 * class. Each guard fails closed: anything unexpected denies.
 */
export function createGuards(deps: { db: Database; clock: Clock; live: LiveBus }) {
  const { db, clock } = deps;
  const sessionCache = createSessionCache(deps.live);

  /**
   * Resolves the caller. Reads may be answered from the session cache; a write reads its session from the database,
   * unless the write confirms the session itself (`confirmedByWrite`): its own statements check, in the database and
   * with the change, that the session stands and what its user may do, so the cache only names the caller.
   */
  const authenticate =
    (confirmedByWrite: boolean): RequestHandler =>
    async (req, res, next) => {
      if (req.auth) return next();
      const token = readSessionToken(req);
      const reading = req.method === "GET" || req.method === "HEAD";
      const auth = token ? await resolveSession(db, clock, token, reading || confirmedByWrite ? sessionCache : undefined) : null;
      if (!auth) throw unauthorized();
      req.auth = auth;
      if (!reading && !confirmedByWrite) forgetOwnSessions(auth.user.id, res);
      next();
    };

  /**
   * The caller's own write (a profile, a company switch, a sign-out) shows on their next read here at once, without
   * waiting for its notification to come back; a read in flight meanwhile is forgotten at the end. A write that
   * confirms its own session (a vote) changes nothing a session holds.
   */
  const forgetOwnSessions = (userId: number, res: Response) => {
    sessionCache.forgetUser(userId);
    res.once("finish", () => sessionCache.forgetUser(userId));
  };

  const requireAuth = authenticate(false);

  const platformAdminOnly: RequestHandler = (req, _res, next) => {
    if (!canAdministerPlatform(authOf(req).user)) throw forbidden(platformAdminDeniedMessage);
    next();
  };
  const requirePlatformAdmin: RequestHandler[] = [requireAuth, platformAdminOnly];

  /** The caller's role in a company, and whether it requires a second factor; the session query already loaded both for the active company. */
  async function membershipOf(
    auth: AuthContext,
    companyId: number,
  ): Promise<{ role: CompanyRole; companyName: string; requiresSecondFactor: boolean } | undefined> {
    if (companyId === auth.user.activeCompanyId && auth.activeRole && auth.activeCompanyName != null) {
      return { role: auth.activeRole, companyName: auth.activeCompanyName, requiresSecondFactor: auth.activeCompanyRequiresSecondFactor };
    }
    const [membership] = await db
      .select({ role: memberships.role, companyName: companies.name, requiresSecondFactor: companies.requireSecondFactor })
      .from(memberships)
      .innerJoin(companies, eq(companies.id, memberships.companyId))
      .where(and(eq(memberships.userId, auth.user.id), eq(memberships.companyId, companyId)));
    return membership;
  }

  function requireCompanyMember(options: CompanyMemberOptions = {}): RequestHandler[] {
    const source: CompanySource = options.company ?? { from: "param", param: "companyId" };
    const memberCheck: RequestHandler = async (req, _res, next) => {
      const { user } = authOf(req);
      let companyId: number | null;
      if (source.from === "param") {
        // Only the named parameter: a thing's `:id` is never read as a company id.
        companyId = parseId(req.params[source.param]);
        if (companyId == null) throw forbidden("You are not a member of this company");
      } else if (source.from === "active") {
        companyId = user.activeCompanyId;
        if (companyId == null) throw new HttpError(400, "Create or choose a company first");
      } else {
        companyId = await source.companyOf(req);
        if (companyId == null) throw notFound();
      }
      const membership = await membershipOf(authOf(req), companyId);
      if (!membership) {
        // A thing of another company is reported as missing, never as existing.
        if (source.from === "thing") throw notFound();
        throw forbidden("You are not a member of this company");
      }
      // A company that requires a second factor shows nothing to a session that did not pass one; their own
      // account's routes (where they set one up) stay open.
      assertSessionPassedSecondFactor(membership.requiresSecondFactor, secondFactorStandingOf(authOf(req)));
      if (options.permission) assertPermission(membership.role, options.permission);
      req.tenant = { user, company: { id: companyId, name: membership.companyName }, role: membership.role };
      next();
    };
    return [requireAuth, memberCheck];
  }

  /** `/api/users/:id...`: only the user themself. */
  function requireOwnResource(param = "id"): RequestHandler[] {
    const ownCheck: RequestHandler = (req, _res, next) => {
      const id = idParam(req.params[param]);
      if (id !== authOf(req).user.id) throw forbidden("You can only change your own account");
      next();
    };
    return [requireAuth, ownCheck];
  }

  /**
   * A thing of the caller's own, loaded by id (a notification): `ownerOf` answers its owner's user id, or
   * null when there is none. Anyone else's is reported as missing, never as existing.
   */
  function requireOwnThing(ownerOf: (req: Request) => Promise<number | null>, notFoundMessage?: string): RequestHandler[] {
    const ownerCheck: RequestHandler = async (req, _res, next) => {
      const { user } = authOf(req);
      if ((await ownerOf(req)) !== user.id) throw notFound(notFoundMessage);
      next();
    };
    return [requireAuth, ownerCheck];
  }

  /**
   * A company's thing whose service checks the caller's membership itself, in the same transaction and after
   * the row lock it takes anyway (a vote): a guard query before it would be one more round trip on the
   * busiest write, and a membership read before the lock could be stale by the time the write happens. The
   * service must answer 404 for a thing of a company the caller is not a member of; the tenancy test holds
   * every route declared so to that, from outside. The guard itself only requires a session.
   */
  const requireAuthThenThingInService: RequestHandler[] = [requireAuth];
  /** The same, for a write that confirms its session itself (see `authenticate`). */
  const requireAuthConfirmedByWrite: RequestHandler[] = [authenticate(true)];

  return {
    /**
     * A write that changes accounts other than its caller's (a link followed without a session: an address proved,
     * a password reset) drops what this instance cached of their sessions once it committed.
     */
    forgetSessionsOf: (userIds: readonly number[]) => userIds.forEach((userId) => sessionCache.forgetUser(userId)),
    requireAuth,
    requirePlatformAdmin,
    requireCompanyMember,
    requireOwnResource,
    requireOwnThing,
    requireAuthThenThingInService,
    requireAuthConfirmedByWrite,
  };
}
