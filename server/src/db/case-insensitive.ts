import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

/**
 * `lower(column) = <value lower-cased>`: the form the lower(...) unique indexes on usernames, e-mails and
 * service names can serve. The value is compared as given (callers trim what they read from a body).
 */
export function equalsIgnoringCase(column: SQLWrapper, value: string): SQL {
  return sql`lower(${column}) = ${value.toLowerCase()}`;
}
