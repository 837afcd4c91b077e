// The frame of a command that works on the embedded database's DATA_DIR (backup, restore): its usage, its refusal when
// Quorum runs on Postgres or in memory, and its exit codes (0: done; 1: refused or failed, the reason printed; 2: usage,
// or a database the command does not handle).
import { resolve } from "node:path";
import { readEnv, type Env } from "../../server/src/env";

export function runEmbeddedDataDirCommand(command: {
  usage: string;
  /** Printed when DATABASE_URL is set: what to run instead (naming the variable, never its value, which holds a password). */
  onPostgres: string[];
  /** Printed when DATA_DIR is memory://. */
  inMemory: string;
  run: (file: string, dataDir: string, env: Env) => Promise<void>;
}): void {
  async function main(): Promise<number> {
    const [file, ...rest] = process.argv.slice(2);
    if (!file || rest.length > 0) {
      console.error(command.usage);
      return 2;
    }
    const env = readEnv();
    if (env.DATABASE_URL) {
      console.error(command.onPostgres.join("\n"));
      return 2;
    }
    if (env.DATA_DIR.startsWith("memory://")) {
      console.error(command.inMemory);
      return 2;
    }
    await command.run(file, resolve(env.DATA_DIR), env);
    return 0;
  }
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
