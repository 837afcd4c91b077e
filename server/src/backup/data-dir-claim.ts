import { chmodSync, readdirSync, rmSync, unlinkSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { embeddedDatabaseDir, type DatabaseHandle } from "../db/client";
import { copyAtOneInstant, type CopyOutcome } from "./consistent-copy";

/**
 * The embedded database may be opened by one process at a time, and nothing in it stops a second: each process that
 * opens DATA_DIR (the server, a backup of a stopped server) first claims it by listening on DATA_DIR/control.sock,
 * and one that finds the socket answering stays away. The running server also answers a backup's request on it: it
 * copies its database as it stands at one instant into a directory beside it (see consistent-copy.ts).
 */
export const controlSocketName = "control.sock";
/** Where copies for backups are made: inside DATA_DIR, so the copy is on the same disk and as private. */
export const stagingPrefix = ".backup-";
/** A Unix socket's path fits in 108 bytes on Linux (104 on macOS), its terminating NUL included. */
const maxSocketPathBytes = 103;
const maxRequestBytes = 1024;

export class DataDirInUseError extends Error {}

type SnapshotSource = Pick<DatabaseHandle, "db" | "holdStill">;

export function controlSocketPath(dataDir: string): string {
  const path = join(dataDir, controlSocketName);
  if (Buffer.byteLength(path) > maxSocketPathBytes) {
    throw new Error(`DATA_DIR's path is too long for its control socket (${path}): use a DATA_DIR path of at most 90 characters`);
  }
  return path;
}

/** What a running server answers to a backup's request. */
export type SnapshotAnswer = { ok: true; staged: string; copy: CopyOutcome; checkpointMs: number } | { ok: false; message: string };

/** Whether a process listens on DATA_DIR's control socket now. */
async function socketAnswers(path: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const probe = createConnection(path);
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNREFUSED" || error.code === "ENOENT") resolve(false);
      else reject(error);
    });
  });
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

export interface DataDirClaim {
  /** From now on, a backup's request is answered with a copy of this database (until then, with "try again"). */
  serveSnapshots(database: SnapshotSource): void;
  /** Gives DATA_DIR up (the socket file goes). */
  close(): Promise<void>;
}

/**
 * Claims DATA_DIR for this process (see above). Refused with a DataDirInUseError when another process holds it; a
 * socket left by a process that died is taken over, and copies left by backups that died are removed.
 */
export async function claimDataDir(dataDir: string, holder: "server" | "backup" | "admin"): Promise<DataDirClaim> {
  const path = controlSocketPath(dataDir);
  let database: SnapshotSource | undefined;
  let copying = false;
  const connections = new Set<Socket>();
  const server = createServer({ allowHalfOpen: false }, (connection) => {
    connections.add(connection);
    connection.once("close", () => connections.delete(connection));
    let received = "";
    let answered = false;
    const answer = (reply: SnapshotAnswer) => {
      answered = true;
      connection.end(`${JSON.stringify(reply)}\n`);
    };
    connection.on("error", () => connection.destroy());
    connection.on("data", (chunk) => {
      if (answered) return;
      received += String(chunk);
      if (received.length > maxRequestBytes) return answer({ ok: false, message: "The request is too long" });
      if (!received.includes("\n")) return;
      const request = received.slice(0, received.indexOf("\n")).trim();
      if (request !== "snapshot") return answer({ ok: false, message: "Unknown request" });
      if (holder === "backup") return answer({ ok: false, message: "A backup of this stopped DATA_DIR is under way" });
      if (holder === "admin")
        return answer({ ok: false, message: "npm run admin is using this stopped DATA_DIR: try again when it is done" });
      if (!database?.holdStill) return answer({ ok: false, message: "Quorum is starting: try again in a moment" });
      if (copying) return answer({ ok: false, message: "Another backup is being copied: try again when it is done" });
      copying = true;
      answered = true;
      void snapshot(dataDir, database)
        .then(async (done) => {
          // The backup that asked is gone: nobody will remove its copy.
          if (connection.destroyed) await rm(done.staged, { recursive: true, force: true });
          else connection.end(`${JSON.stringify(done)}\n`);
        })
        .catch((error: unknown) => connection.end(`${JSON.stringify({ ok: false, message: (error as Error).message })}\n`))
        .finally(() => {
          copying = false;
        });
    });
  });

  try {
    await listen(server, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    if (await socketAnswers(path)) {
      throw new DataDirInUseError(
        `${dataDir} is in use by another Quorum process (a server, or a backup of it): only one may open its database at a time`,
      );
    }
    unlinkSync(path);
    await listen(server, path);
  }
  chmodSync(path, 0o600);
  removeLeftoverCopies(dataDir);
  return {
    serveSnapshots: (handle) => {
      database = handle;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A backup still waiting for its copy is told by the connection's end; the server does not wait for it.
        for (const connection of connections) connection.destroy();
      }),
  };
}

/** Copies a backup left behind when it died (nothing else can be using them while no process held DATA_DIR). */
function removeLeftoverCopies(dataDir: string): void {
  for (const name of readdirSync(dataDir)) {
    if (name.startsWith(stagingPrefix)) rmSync(join(dataDir, name), { recursive: true, force: true });
  }
}

async function snapshot(dataDir: string, database: SnapshotSource): Promise<Extract<SnapshotAnswer, { ok: true }>> {
  const staged = await mkdtemp(join(dataDir, stagingPrefix));
  const holdStill = database.holdStill!.bind(database);
  try {
    // Pages changed in memory are written out now, not while the files are being copied (each file written to
    // during the copy is copied again, and a large one would be copied again while the server waits).
    const started = performance.now();
    await database.db.execute(sql`checkpoint`);
    const checkpointMs = performance.now() - started;
    const copy = await copyAtOneInstant(embeddedDatabaseDir(dataDir), join(staged, "db"), (work) => holdStill(work));
    return { ok: true, staged, copy, checkpointMs };
  } catch (error) {
    await rm(staged, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Asks the server running on DATA_DIR for a copy of its database; null when no server listens there (none runs).
 * The copy's directory is the caller's to remove.
 */
export function requestSnapshot(dataDir: string): Promise<SnapshotAnswer | null> {
  const path = controlSocketPath(dataDir);
  return new Promise((resolve, reject) => {
    const connection = createConnection(path);
    let received = "";
    connection.once("connect", () => connection.write("snapshot\n"));
    connection.on("data", (chunk) => {
      received += String(chunk);
    });
    connection.once("end", () => {
      try {
        resolve(JSON.parse(received) as SnapshotAnswer);
      } catch {
        reject(new Error("The running server's answer could not be read"));
      }
    });
    connection.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNREFUSED" || error.code === "ENOENT") resolve(null);
      else reject(error);
    });
  });
}
