import type { Database } from "./client";

/**
 * A hot query built once per database, as a named prepared statement (`.prepare(name)` in `build`): each request
 * then neither rebuilds its SQL nor has Postgres parse and plan it again. Parameters are `sql.placeholder(...)`.
 */
export function preparedPerDatabase<Query>(build: (db: Database) => Query): (db: Database) => Query {
  const built = new WeakMap<Database, Query>();
  return (db) => {
    let query = built.get(db);
    if (!query) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}
