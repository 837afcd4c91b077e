// npm run backup -- <file>: a backup of the embedded database and DATA_DIR/secret, taken while Quorum runs (or not),
// checked and described in the file's manifest (server/src/backup/take-backup.ts). Exit 0: written; 1: refused or
// failed (the reason printed); 2: usage, or a database this command does not back up.
import { resolve } from "node:path";
import { takeBackup } from "../../server/src/backup/take-backup";
import { readEnv } from "../../server/src/env";

const usage = "Usage: npm run backup -- <file.zip>";

async function main(): Promise<number> {
  const [file, ...rest] = process.argv.slice(2);
  if (!file || rest.length > 0) {
    console.error(usage);
    return 2;
  }
  const env = readEnv();
  if (env.DATABASE_URL) {
    // The URL holds a password: the command names the variable, never its value.
    console.error(
      [
        "DATABASE_URL is set: Quorum's data is in that Postgres database, which this command does not copy. Back it up with:",
        '  pg_dump --format=custom --file=quorum.dump "$DATABASE_URL"',
        "and keep APP_SECRET with it (and, with a Storage service, the bucket's objects). See README.md, Backup and restore.",
      ].join("\n"),
    );
    return 2;
  }
  if (env.DATA_DIR.startsWith("memory://")) {
    console.error("DATA_DIR is memory://: there is nothing on disk to back up.");
    return 2;
  }
  await takeBackup({ dataDir: resolve(env.DATA_DIR), file, print: (line) => console.log(line) });
  if (env.APP_SECRET) {
    console.log("APP_SECRET is set in the environment: the server uses it, not DATA_DIR/secret. Keep it with this backup.");
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
