/** Query keys of the signed-in user's notifications. */
export const notificationKeys = {
  all: () => ["notifications"] as const,
};
