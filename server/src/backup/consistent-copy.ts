import { constants, copyFileSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { copyFile, mkdir, readdir, stat } from "node:fs/promises";
import { join } from "node:path";

/**
 * A copy of a directory as it stood at one instant, for a database that may be writing to it: it is copied while the
 * database runs (a pass copies what changed since the one before), and once what changed is small the database is held
 * still (`hold`) for one last pass over the files that changed since: the server waits for that pass only.
 */

/** A file as it was when it was copied: copied again when it changed since. */
interface CopiedFile {
  size: bigint;
  mtimeNs: bigint;
  /** When it was looked at (ns since the epoch, the clock file times come from). */
  seenAtNs: bigint;
}

export interface CopyOutcome {
  files: number;
  bytes: number;
  /** How long the database was held still, and what was copied meanwhile. */
  heldMs: number;
  heldFiles: number;
  heldBytes: number;
}

/** The database's lock file says who has it open: never part of a copy. */
const notCopied = new Set(["postmaster.pid"]);
/**
 * File times tick coarsely (a few milliseconds; whole seconds on some file systems, whose times show it): a file written
 * in the same tick as it was looked at keeps its time, so one written less than a tick before it was looked at is copied
 * again.
 */
const tickNs = (mtimeNs: bigint) => (mtimeNs % 1_000_000_000n === 0n ? 2_000_000_000n : 100_000_000n);
/** The passes while the database runs stop once one copies less than this, or after so many. */
const smallEnoughBytes = 64 * 1024 * 1024;
const maxUnheldPasses = 5;
const parallelCopies = 4;
/** A file system that can share a file's blocks (btrfs, XFS) copies in no time; any other copies the bytes. */
const cloneIfPossible = constants.COPYFILE_FICLONE;

const nowNs = () => BigInt(Date.now()) * 1_000_000n;

function needsCopy(copied: CopiedFile | undefined, size: bigint, mtimeNs: bigint): boolean {
  if (!copied) return true;
  return copied.size !== size || copied.mtimeNs !== mtimeNs || copied.mtimeNs > copied.seenAtNs - tickNs(copied.mtimeNs);
}

/** Every directory and file under `root`, as paths relative to it (directories before what they hold). */
async function listTree(root: string, under = ""): Promise<{ directories: string[]; files: string[] }> {
  const directories: string[] = [];
  const files: string[] = [];
  for (const entry of await readdir(join(root, under), { withFileTypes: true })) {
    const path = under ? `${under}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      directories.push(path);
      const inner = await listTree(root, path);
      directories.push(...inner.directories);
      files.push(...inner.files);
    } else if (entry.isFile() && !notCopied.has(path)) {
      files.push(path);
    }
  }
  return { directories, files };
}

/** As listTree, at once: for a copy the database is held still for, and for the copy it made. */
export function listTreeSync(root: string, under = ""): { directories: string[]; files: string[] } {
  const directories: string[] = [];
  const files: string[] = [];
  for (const entry of readdirSync(join(root, under), { withFileTypes: true })) {
    const path = under ? `${under}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      directories.push(path);
      const inner = listTreeSync(root, path);
      directories.push(...inner.directories);
      files.push(...inner.files);
    } else if (entry.isFile() && !notCopied.has(path)) {
      files.push(path);
    }
  }
  return { directories, files };
}

const vanished = (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOENT";

/** One pass while the database runs: answers the bytes it copied. A file that vanishes meanwhile is left to the held pass. */
async function unheldPass(source: string, target: string, copied: Map<string, CopiedFile>): Promise<number> {
  const { directories, files } = await listTree(source);
  for (const directory of directories) await mkdir(join(target, directory), { recursive: true });
  let bytes = 0;
  const queue = [...files];
  const copier = async () => {
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      try {
        const seenAtNs = nowNs();
        const stats = await stat(join(source, path), { bigint: true });
        if (!needsCopy(copied.get(path), stats.size, stats.mtimeNs)) continue;
        await copyFile(join(source, path), join(target, path), cloneIfPossible);
        copied.set(path, { size: stats.size, mtimeNs: stats.mtimeNs, seenAtNs });
        bytes += Number(stats.size);
      } catch (error) {
        if (!vanished(error)) throw error;
        copied.delete(path);
      }
    }
  };
  await Promise.all(Array.from({ length: parallelCopies }, copier));
  return bytes;
}

/** The last pass, with nothing writing: copies what changed, and removes from the copy what is gone from the source. */
function heldPass(source: string, target: string, copied: Map<string, CopiedFile>): { files: number; bytes: number; total: number } {
  const { directories, files } = listTreeSync(source);
  for (const directory of directories) mkdirSync(join(target, directory), { recursive: true });
  const present = new Set(files);
  for (const path of copied.keys()) {
    if (present.has(path)) continue;
    rmSync(join(target, path), { force: true });
    copied.delete(path);
  }
  let copiedFiles = 0;
  let bytes = 0;
  let total = 0;
  for (const path of files) {
    const seenAtNs = nowNs();
    const stats = statSync(join(source, path), { bigint: true });
    total += Number(stats.size);
    if (!needsCopy(copied.get(path), stats.size, stats.mtimeNs)) continue;
    // Synchronous: the database waits for this pass, and nothing else should run in between.
    copyFileSync(join(source, path), join(target, path), cloneIfPossible);
    copied.set(path, { size: stats.size, mtimeNs: stats.mtimeNs, seenAtNs });
    copiedFiles += 1;
    bytes += Number(stats.size);
  }
  // A directory the source no longer has (a dropped database's) goes too.
  const kept = new Set(directories);
  for (const directory of listTreeSync(target).directories.reverse()) {
    if (!kept.has(directory)) rmSync(join(target, directory), { recursive: true, force: true });
  }
  return { files: copiedFiles, bytes, total };
}

/**
 * Copies `source` into `target` (an empty directory) as it stood at one instant: `hold` runs its work while nothing
 * writes to `source` (for a database nobody has open, it just runs it).
 */
export async function copyAtOneInstant(source: string, target: string, hold: (work: () => void) => Promise<void>): Promise<CopyOutcome> {
  const copied = new Map<string, CopiedFile>();
  for (let pass = 0; pass < maxUnheldPasses; pass += 1) {
    const bytes = await unheldPass(source, target, copied);
    if (bytes < smallEnoughBytes) break;
  }
  let held = { files: 0, bytes: 0, total: 0 };
  let heldMs = 0;
  await hold(() => {
    const started = performance.now();
    held = heldPass(source, target, copied);
    heldMs = performance.now() - started;
  });
  return { files: copied.size, bytes: held.total, heldMs, heldFiles: held.files, heldBytes: held.bytes };
}
