// npm run restore -- <file>: puts a backup made by `npm run backup` back into an empty or absent DATA_DIR, checking
// every file's hash and then the database's tables and audit chains against the backup's manifest
// (server/src/backup/restore-backup.ts). Exit 0: restored; 1: refused (the reason printed, nothing written); 2: usage.
import { resolve } from "node:path";
import { restoreBackup } from "../../server/src/backup/restore-backup";
import { readEnv } from "../../server/src/env";

const usage = "Usage: npm run restore -- <file.zip>   (into DATA_DIR, which must be empty or absent)";

async function main(): Promise<number> {
  const [file, ...rest] = process.argv.slice(2);
  if (!file || rest.length > 0) {
    console.error(usage);
    return 2;
  }
  const env = readEnv();
  if (env.DATABASE_URL) {
    console.error(
      [
        "DATABASE_URL is set: this command restores the embedded database only. Restore a Postgres dump with:",
        '  pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" quorum.dump',
      ].join("\n"),
    );
    return 2;
  }
  if (env.DATA_DIR.startsWith("memory://")) {
    console.error("DATA_DIR is memory://: a backup is restored into a directory on disk.");
    return 2;
  }
  await restoreBackup({ dataDir: resolve(env.DATA_DIR), file, print: (line) => console.log(line) });
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
