import { Column, is, SQL, type Query } from "drizzle-orm";
import { PgDialect, type SelectedFieldsOrdered } from "drizzle-orm/pg-core";
import type { Database, Queryable } from "./client";

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

/** A select whose columns are each a column or an SQL expression (no nested objects). */
interface FlatSelect<Row> {
  toSQL(): Query;
  readonly _: { readonly selectedFields: unknown; readonly result: Row[] };
}

const dialect = new PgDialect();

/**
 * A hot statement of a transaction, built once for the whole process. drizzle builds a query for the connection
 * that runs it, and every transaction has a connection of its own, so a statement inside one is built again on each
 * call (for a vote, a quarter of its CPU). This builds the SQL the first time and afterwards only fills in the
 * placeholders (`sql.placeholder(...)`), on whatever database or transaction it is given, as the named prepared
 * statement `name`, so Postgres parses and plans it once per connection too.
 *
 * A select's columns are mapped as drizzle maps them (dates, `.mapWith`); raw SQL answers its rows as the driver
 * gives them.
 */
export function builtOnce<Row>(
  name: string,
  build: (q: Queryable) => FlatSelect<Row>,
): (q: Queryable, values: Record<string, unknown>) => Promise<Row[]>;
export function builtOnce<Row>(
  name: string,
  build: (q: Queryable) => SQL<Row>,
): (q: Queryable, values: Record<string, unknown>) => Promise<Row[]>;
export function builtOnce(name: string, build: (q: Queryable) => FlatSelect<unknown> | SQL) {
  let built: { query: Query; fields: SelectedFieldsOrdered | undefined } | undefined;
  return async (q: Queryable, values: Record<string, unknown>): Promise<unknown[]> => {
    if (!built) {
      const statement = build(q);
      if (is(statement, SQL)) {
        built = { query: dialect.sqlToQuery(statement), fields: undefined };
      } else {
        const selected = statement._.selectedFields as Record<string, unknown>;
        // The answer's columns are mapped in the order of these entries: only a flat selection keeps that order.
        const fields = Object.entries(selected).map(([key, field]) => {
          if (!is(field, Column) && !is(field, SQL) && !is(field, SQL.Aliased))
            throw new Error(`${name}: builtOnce takes flat selections only (${key})`);
          return { path: [key], field: field as SelectedFieldsOrdered[number]["field"] };
        });
        built = { query: statement.toSQL(), fields };
      }
    }
    const { query, fields } = built;
    const prepared = q._.session.prepareQuery(query, fields, name, fields !== undefined);
    const result = (await prepared.execute(values)) as unknown[] | { rows: unknown[] };
    return Array.isArray(result) ? result : result.rows;
  };
}
