/** Query keys of the session: the signed-in user and the platform-admin check. Not company-scoped. */
export const authKeys = {
  user: () => ["auth", "user"] as const,
  platformAdmin: () => ["auth", "platform-admin"] as const,
  /** Whether the user's authenticator app is on. */
  totp: () => ["auth", "totp"] as const,
  /** The user's passkeys. */
  passkeys: () => ["auth", "passkeys"] as const,
};
