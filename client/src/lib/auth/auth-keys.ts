/** Query keys of the session: the signed-in user and the platform-admin check. Not company-scoped. */
export const authKeys = {
  user: () => ["/api/auth/user"] as const,
  platformAdmin: () => ["/api/auth/check-platform-admin"] as const,
};
