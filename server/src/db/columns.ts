import { users } from "./schema";

/** The columns of a user that `displayName` reads: select them with `...nameColumns` and pass the row to it. */
export const nameColumns = { firstName: users.firstName, lastName: users.lastName, username: users.username };
