/** Query keys of the auth feature. */
export const authKeys = {
  user: () => ["/api/auth/user"] as const,
  platformAdmin: () => ["/api/auth/check-platform-admin"] as const,
};
