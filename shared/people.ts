// Kept free of zod so screens that only show names do not pull the schema library into the main bundle.

/** "First Last", or the username when both are empty. */
export function displayName(person: { firstName?: string | null; lastName?: string | null; username?: string | null }): string {
  const full = [person.firstName, person.lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(" ");
  return full || person.username || "";
}
