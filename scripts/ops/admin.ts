// npm run admin -- grant|revoke <username>: platform-admin rights from the command line.
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { claimDataDir } from "../../server/src/backup/data-dir-claim";
import { embeddedDatabaseDir, openDatabase } from "../../server/src/db/client";
import { runMigrations } from "../../server/src/db/migrate";
import { readEnv } from "../../server/src/env";
import { setPlatformAdmin } from "../../server/src/features/auth/auth.service";

async function main(): Promise<number> {
  const [action, username] = process.argv.slice(2);
  if ((action !== "grant" && action !== "revoke") || !username) {
    console.error("Usage: npm run admin -- grant|revoke <username>");
    return 2;
  }
  const env = readEnv();
  const dataDir = env.DATA_DIR.startsWith("memory://") ? env.DATA_DIR : resolve(env.DATA_DIR);
  // The embedded database may be opened by one process at a time: refused while Quorum runs on it.
  const embeddedOnDisk = !env.DATABASE_URL && !dataDir.startsWith("memory://");
  if (embeddedOnDisk) mkdirSync(dataDir, { recursive: true });
  const claim = embeddedOnDisk ? await claimDataDir(dataDir, "admin") : undefined;
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: embeddedDatabaseDir(dataDir) });
  try {
    await runMigrations(database);
    const changed = await setPlatformAdmin({ db: database.db }, [username], action === "grant");
    if (changed === 0) {
      console.error(
        action === "grant"
          ? `No account with the username "${username}" and a verified e-mail address (its holder confirms the address first).`
          : `No account with the username "${username}".`,
      );
      return 1;
    }
    console.log(action === "grant" ? `${username} is now a platform admin.` : `${username} is no longer a platform admin.`);
    return 0;
  } finally {
    await database.close();
    await claim?.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
