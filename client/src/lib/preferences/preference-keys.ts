/** Query keys of the signed-in user's switches. Not company-scoped: they follow the user everywhere. */
export const preferenceKeys = {
  all: () => ["/api/users", "preferences"] as const,
  detail: (userId: number) => ["/api/users", "preferences", userId] as const,
};
