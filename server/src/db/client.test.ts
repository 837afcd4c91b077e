import { sql } from "drizzle-orm";
import pg from "pg";
import { openDatabase } from "./client";

const databaseUrl = process.env.DATABASE_URL;

describe.runIf(process.env.QUORUM_TEST_DB === "postgres" && databaseUrl)("the Postgres pool", () => {
  it("survives an idle connection being terminated, and the next query gets a fresh one", async () => {
    let reportLostConnection!: (error: Error) => void;
    const lostConnection = new Promise<Error>((resolve) => (reportLostConnection = resolve));
    const database = await openDatabase({ databaseUrl, dataDir: "memory://", onIdleConnectionError: reportLostConnection });
    // The pool holds one idle connection after a query: this is its server process.
    const backendPid = async () => {
      const result = await database.db.execute(sql`select pg_backend_pid() as pid`);
      return (result as unknown as { rows: { pid: number }[] }).rows[0]!.pid;
    };
    try {
      const pid = await backendPid();

      // What a Postgres restart or an administrator does to an idle connection.
      const administrator = new pg.Client({ connectionString: databaseUrl });
      await administrator.connect();
      await administrator.query("select pg_terminate_backend($1)", [pid]);
      await administrator.end();

      expect((await lostConnection).message).toMatch(/terminating connection/);
      expect(await backendPid()).not.toBe(pid);
    } finally {
      await database.close();
    }
  });
});
