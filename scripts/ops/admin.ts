// npm run admin -- grant|revoke <username>: platform-admin rights from the command line.
import { resolve } from "node:path";
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
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
