/** Query keys of the signed-in user's own account (not company-scoped). */
export const accountKeys = {
  sessions: (userId: number) => ["/api/users", "sessions", userId] as const,
};
