// npm run restore -- <file>: puts a backup made by `npm run backup` back into an empty or absent DATA_DIR, checking
// every file's hash and then the database's tables and audit chains against the backup's manifest
// (server/src/backup/restore-backup.ts). Exit 0: restored; 1: refused (the reason printed, nothing written); 2: usage.
import { restoreBackup } from "../../server/src/backup/restore-backup";
import { runEmbeddedDataDirCommand } from "./embedded-data-dir-command";

runEmbeddedDataDirCommand({
  usage: "Usage: npm run restore -- <file.zip>   (into DATA_DIR, which must be empty or absent)",
  onPostgres: [
    "DATABASE_URL is set: this command restores the embedded database only. Restore a Postgres dump into a new, empty database:",
    '  pg_restore --no-owner --dbname="$DATABASE_URL" quorum.dump',
  ],
  inMemory: "DATA_DIR is memory://: a backup is restored into a directory on disk.",
  async run(file, dataDir) {
    await restoreBackup({ dataDir, file, print: (line) => console.log(line) });
  },
});
