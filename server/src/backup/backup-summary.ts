import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Manifest } from "./backup-file";

/** The version in Quorum's package.json, found from the source tree or the built bundle. */
export function quorumVersion(start = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = join(dir, "package.json");
    if (existsSync(candidate)) {
      const found = JSON.parse(readFileSync(candidate, "utf8")) as { name?: string; version?: string };
      if (found.name === "quorum" && found.version) return found.version;
    }
    if (dirname(dir) === dir) return "unknown";
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/**
 * What a backup holds, as both commands print it: each table with its rows and hash, the files, and each audit
 * chain's head, so a restore can be held against its backup by eye too.
 */
export function describeBackup(manifest: Manifest, print: (line: string) => void): void {
  const width = Math.max(...manifest.tables.map((table) => table.name.length));
  print(`Tables (${manifest.tables.length}), rows and SHA-256 of their rows:`);
  for (const table of manifest.tables) print(`  ${table.name.padEnd(width)} ${String(table.rows).padStart(9)}  ${table.sha256}`);
  const bytes = manifest.files.reduce((sum, file) => sum + file.bytes, 0);
  const secret = manifest.files.some((file) => file.path === "secret");
  print(
    `Files: ${manifest.files.length} (${formatBytes(bytes)}): the database's directory (${manifest.files.filter((file) => file.path.startsWith("db/")).length} files)${secret ? " and DATA_DIR/secret" : "; no DATA_DIR/secret (APP_SECRET is kept elsewhere)"}`,
  );
  print(`Audit chains (${manifest.auditHeads.length}), where each ends (0 is the platform's, others a company's):`);
  for (const head of manifest.auditHeads)
    print(`  chain ${String(head.chainKey).padStart(6)}  seq ${String(head.seq).padStart(7)}  ${head.hash}`);
}
