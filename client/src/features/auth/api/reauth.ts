import type { ReauthAnswer, ReauthInput } from "@shared/identity";
import * as api from "@shared/api/identity";
import { callApi } from "@/lib/api-client";

/** POST /api/auth/reauth {password, code?}: this session may make security changes for the next minutes. */
export function reauthenticate(input: ReauthInput): Promise<ReauthAnswer> {
  return callApi(api.reauthenticate, { body: input.code ? input : { password: input.password } });
}
