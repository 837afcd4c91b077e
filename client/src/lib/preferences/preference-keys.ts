/** Query keys of the signed-in user's switches. Not company-scoped: they follow the user everywhere. */
export const preferenceKeys = {
  all: () => ["preferences"] as const,
  detail: (userId: number) => [...preferenceKeys.all(), userId] as const,
};
