import { Router, type Response } from "express";
import { loginSchema, registerSchema } from "../../../../shared/auth";
import type { RouterDeps } from "../../app-deps";
import { authOf } from "../../http/guards";
import { parseOr400 } from "../../http/validate";
import { clearSessionCookie, setSessionCookie } from "../../http/session";
import { toUserObject } from "../../http/user-object";
import { login, logout, register, type SignedIn } from "./auth.service";

export function authRouter(deps: RouterDeps): Router {
  const router = Router();
  const { requireAuth } = deps.guards;

  const answerSignedIn = (res: Response, status: number, signedIn: SignedIn, secure: boolean) => {
    setSessionCookie(res, signedIn.token, secure);
    res.status(status).json({ ...toUserObject(signedIn.user, signedIn.activeRole), token: signedIn.token });
  };

  router.post("/register", async (req, res) => {
    const input = parseOr400(registerSchema, req.body);
    answerSignedIn(res, 201, await register(deps, input, req.get("user-agent")), req.secure);
  });

  router.post("/login", async (req, res) => {
    const input = parseOr400(loginSchema, req.body);
    answerSignedIn(res, 200, await login(deps, input, req.ip ?? "unknown", req.get("user-agent")), req.secure);
  });

  router.post("/logout", requireAuth, async (req, res) => {
    await logout(deps, authOf(req).sessionId);
    clearSessionCookie(res);
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
