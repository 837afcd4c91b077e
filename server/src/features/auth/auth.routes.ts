import { Router, type Response } from "express";
import { loginSchema, registerSchema } from "../../../../shared/auth";
import type { RouterDeps } from "../../app-deps";
import { authOf } from "../../http/guards";
import { parseOr400 } from "../../http/validate";
import { login, logout, register, type SignedIn } from "./auth.service";
import { sessionAbsoluteLimitMs, sessionCookieName } from "./tokens";
import { toUserObject } from "./user-object";

export function authRouter(deps: RouterDeps): Router {
  const router = Router();
  const { requireAuth } = deps.guards;

  // The cookie mirrors the bearer token for GET downloads opened in a new tab; it is never accepted on writes.
  const answerSignedIn = (res: Response, status: number, signedIn: SignedIn, secure: boolean) => {
    res.cookie(sessionCookieName, signedIn.token, {
      httpOnly: true,
      sameSite: "lax",
      secure,
      path: "/",
      maxAge: sessionAbsoluteLimitMs,
    });
    res.status(status).json({ ...toUserObject(signedIn.user, signedIn.activeRole), token: signedIn.token });
  };

  router.post("/register", async (req, res) => {
    const input = parseOr400(registerSchema, req.body);
    answerSignedIn(res, 201, await register(deps, input), req.secure);
  });

  router.post("/login", async (req, res) => {
    const input = parseOr400(loginSchema, req.body);
    answerSignedIn(res, 200, await login(deps, input, req.ip ?? "unknown"), req.secure);
  });

  router.post("/logout", requireAuth, async (req, res) => {
    await logout(deps.db, authOf(req).sessionId);
    res.clearCookie(sessionCookieName, { path: "/" });
    res.status(204).end();
  });

  router.get("/user", requireAuth, (req, res) => {
    const { user, activeRole } = authOf(req);
    res.json(toUserObject(user, activeRole));
  });

  router.get("/check-platform-admin", requireAuth, (req, res) => {
    res.json({ isPlatformAdmin: authOf(req).user.isPlatformAdmin });
  });

  return router;
}
