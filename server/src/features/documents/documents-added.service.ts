import { and, desc, gte, inArray, lte, ne } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { documents } from "../../db/schema";

/** The files (not meetings' own documents) added to the companies' libraries from `since` to `until`, newest first. */
export function documentsAddedBetween(db: Queryable, companyIds: number[], { since, until }: { since: Date; until: Date }) {
  return db
    .select({ companyId: documents.companyId, id: documents.id, name: documents.name, createdAt: documents.createdAt })
    .from(documents)
    .where(
      and(
        inArray(documents.companyId, companyIds),
        gte(documents.createdAt, since),
        lte(documents.createdAt, until),
        ne(documents.category, "Meeting"),
      ),
    )
    .orderBy(desc(documents.createdAt), desc(documents.id));
}
