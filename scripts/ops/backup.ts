// npm run backup -- <file>: a backup of the embedded database and DATA_DIR/secret, taken while Quorum runs (or not),
// checked and described in the file's manifest (server/src/backup/take-backup.ts). Exit 0: written; 1: refused or
// failed (the reason printed); 2: usage, or a database this command does not back up.
import { takeBackup } from "../../server/src/backup/take-backup";
import { runEmbeddedDataDirCommand } from "./embedded-data-dir-command";

runEmbeddedDataDirCommand({
  usage: "Usage: npm run backup -- <file.zip>",
  onPostgres: [
    "DATABASE_URL is set: Quorum's data is in that Postgres database, which this command does not copy. Back it up with:",
    '  pg_dump --format=custom --file=quorum.dump "$DATABASE_URL"',
    "and keep APP_SECRET with it (and, with a Storage service, the bucket's objects). See README.md, Backup and restore.",
  ],
  inMemory: "DATA_DIR is memory://: there is nothing on disk to back up.",
  async run(file, dataDir, env) {
    await takeBackup({ dataDir, file, print: (line) => console.log(line) });
    if (env.APP_SECRET) {
      console.log("APP_SECRET is set in the environment: the server uses it, not DATA_DIR/secret. Keep it with this backup.");
    }
  },
});
