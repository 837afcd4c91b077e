// The names of an agenda's presenters, for the documents built from a meeting (its board pack, its minutes).
import { inArray } from "drizzle-orm";
import type { AgendaItem } from "../../../../shared/agenda";
import { displayName } from "../../../../shared/people";
import type { Queryable } from "../../db/client";
import { users } from "../../db/schema";
import { nameColumns } from "../../db/columns";

/** Each presenter's display name by user id: one query, none when no item names a presenter. */
export async function presenterNames(db: Queryable, agenda: readonly Pick<AgendaItem, "presenterId">[]): Promise<Map<number, string>> {
  const ids = [...new Set(agenda.flatMap((item) => (item.presenterId == null ? [] : [item.presenterId])))];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, ...nameColumns })
    .from(users)
    .where(inArray(users.id, ids));
  return new Map(rows.map((row) => [row.id, displayName(row)]));
}
