import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";
import type { Logger } from "pino";
import type { CompanyRole } from "../../../shared/roles";
import type { users } from "../db/schema";

export type UserRow = typeof users.$inferSelect;

/** Who is calling: set by requireAuth. */
export interface AuthContext {
  user: UserRow;
  /** The user's role in their active company, or null with none. */
  activeRole: CompanyRole | null;
  /** The active company's name, loaded with the session so guards on the active company need no second query. */
  activeCompanyName: string | null;
  /** Whether the active company requires its members to have a second factor (loaded with the session too). */
  activeCompanyRequiresSecondFactor: boolean;
  sessionId: number;
  /** When this session passed a second factor; null when it signed in with a password alone. */
  secondFactorAt: Date | null;
  /** When this session last re-proved its holder (`POST /api/auth/reauth`); a sign-in alone does not count. */
  reauthAt: Date | null;
}

/** Which company a request acts in, and as what: set by requireCompanyMember. */
export interface TenantContext {
  user: UserRow;
  company: { id: number; name: string };
  role: CompanyRole;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      id: string;
      log: Logger;
      auth?: AuthContext;
      tenant?: TenantContext;
    }
  }
}

const safeRequestId = /^[\w.-]{1,64}$/;

/** Gives each request an id (echoed as X-Request-Id), a child logger, and one log line when it ends. */
export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get("x-request-id");
    req.id = incoming && safeRequestId.test(incoming) ? incoming : randomUUID();
    req.log = logger.child({ requestId: req.id });
    res.set("X-Request-Id", req.id);
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // Path only: query strings and bodies may carry personal data, and headers carry tokens.
      req.log.info(
        { method: req.method, path: req.originalUrl.split("?")[0], status: res.statusCode, ms: Math.round(ms * 10) / 10 },
        "request",
      );
    });
    next();
  };
}
