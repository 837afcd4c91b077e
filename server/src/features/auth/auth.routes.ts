import type { Response } from "express";
import type { AuthResponse } from "../../../../shared/auth";
import * as api from "../../../../shared/api/auth";
import type { RouterDeps } from "../../app-deps";
import { route, type BoundRoute } from "../../http/endpoints";
import { clearSessionCookie, setSessionCookie } from "../../http/session";
import { toUserObject } from "../identity/user-object.service";
import { login, logout, register, type SignedIn } from "./auth.service";

/** The session's token goes out twice: as the cookie (downloads opened in a new tab) and in the answer (the bearer header). */
export function answerSignedIn(res: Response, signedIn: SignedIn, secure: boolean): AuthResponse {
  setSessionCookie(res, signedIn.token, secure);
  return { ...toUserObject(signedIn.user, signedIn.activeRole), token: signedIn.token };
}

/** The auth endpoints (shared/api/auth.ts) bound to their handlers. */
export function authRoutes(deps: RouterDeps): BoundRoute[] {
  return [
    route(api.register, async ({ body, req, res }) =>
      answerSignedIn(res, await register(deps, body, req.ip ?? "unknown", req.get("user-agent")), req.secure),
    ),
    route(api.login, async ({ body, req, res }) => {
      const answer = await login(deps, body, req.ip ?? "unknown", req.get("user-agent"));
      // With a second factor on, no session yet: the challenge for the second step.
      return "secondFactorRequired" in answer ? answer : answerSignedIn(res, answer, req.secure);
    }),
    route(api.logout, async ({ auth, res }) => {
      await logout(deps, auth.sessionId);
      clearSessionCookie(res);
    }),
    route(api.currentUser, async ({ auth }) => toUserObject(auth.user, auth.activeRole)),
    route(api.checkPlatformAdmin, async ({ auth }) => ({ isPlatformAdmin: auth.user.isPlatformAdmin })),
  ];
}
