import { Writable } from "node:stream";
import { DrizzleQueryError } from "drizzle-orm";
import { createLogger, describeError } from "./logger";

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(String(chunk));
      callback();
    },
  });
  return { logger: createLogger({ destination }), lines, parsed: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

/** What drizzle throws for a failed insert on `pg` or PGlite: the values in its message, params and the cause's detail. */
function failedInsert(): DrizzleQueryError {
  const cause = Object.assign(new Error('new row for relation "users" violates check constraint "c"'), {
    code: "23514",
    severity: "ERROR",
    detail: "Failing row contains (7, ann, $argon2id$v=19$hash).",
    table: "users",
    constraint: "c",
    routine: "ExecConstraints",
    params: ["ann", "$argon2id$v=19$hash"],
  });
  return new DrizzleQueryError('insert into "users" ("username", "password_hash") values ($1, $2)', ["ann", "$argon2id$v=19$hash"], cause);
}

describe("the logger", () => {
  it("keeps a failed query's statement and SQLSTATE, never its values", () => {
    const { logger, lines, parsed } = capture();
    logger.error({ err: failedInsert() }, "unhandled error");
    logger.error({ error: failedInsert() }, "under another key");
    logger.error(failedInsert());
    expect(lines.join("")).not.toMatch(/argon2|ann|Failing row|params/);
    expect(parsed()[0]).toMatchObject({
      msg: "unhandled error",
      err: {
        type: "DrizzleQueryError",
        message: "Database error 23514",
        sqlState: "23514",
        statement: 'insert into "users" ("username", "password_hash") values ($1, $2)',
        table: "users",
        constraint: "c",
        stack: expect.stringMatching(/^ +at /),
      },
    });
    expect(parsed()[2]).toMatchObject({
      msg: 'database error 23514 in: insert into "users" ("username", "password_hash") values ($1, $2)',
    });
  });

  it("describes a query that got no answer by its cause", () => {
    const lost = new DrizzleQueryError(
      "select $1",
      ["secret"],
      Object.assign(new Error("Connection terminated unexpectedly"), { code: "ECONNRESET" }),
    );
    expect(describeError(lost)).toBe("database query failed (Connection terminated unexpectedly) in: select $1");
    const { logger, lines } = capture();
    logger.error({ err: lost }, "lost");
    expect(lines.join("")).not.toContain("secret");
    expect(JSON.parse(lines[0]!)).toMatchObject({
      err: { message: "Database query failed", cause: { message: "Connection terminated unexpectedly", code: "ECONNRESET" } },
    });
  });

  it("logs other errors in full", () => {
    const { logger, parsed } = capture();
    logger.error({ err: new Error("outer", { cause: new Error("inner") }) }, "failed");
    expect(parsed()[0]).toMatchObject({
      err: { type: "Error", message: "outer: inner", stack: expect.stringContaining("caused by: Error: inner") },
    });
  });

  it("redacts headers, cookies, bodies, parameters and credentials wherever they are logged", () => {
    const { logger, lines, parsed } = capture();
    logger.info(
      {
        req: {
          method: "POST",
          headers: { authorization: "Bearer tok-1", cookie: "quorum_session=tok-2", accept: "*/*" },
          body: { password: "pw-3" },
        },
        res: { headers: { "set-cookie": "quorum_session=tok-4" } },
        body: { anything: "body-5" },
        params: ["param-6"],
        cookies: { quorum_session: "tok-7" },
        user: { password: "pw-8", passwordHash: "$argon2id$9", token: "tok-10", serviceKey: "sk-11" },
      },
      "everything",
    );
    expect(lines.join("")).not.toMatch(/tok-|pw-|body-5|param-6|argon2|sk-11/);
    expect(parsed()[0]).toMatchObject({ req: { method: "POST", headers: { accept: "*/*", authorization: "[redacted]" } } });
  });
});
