import { createHash, randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { link, mkdir, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import yauzl from "yauzl";
import yazl from "yazl";
import { z } from "zod";

/**
 * The backup file: a zip of manifest.json, the secret (when DATA_DIR has one) and each file of the database's
 * directory under db/. The manifest gives each file's size and SHA-256, each table's row count and hash and each
 * audit chain's head; the zip's comment gives the manifest's own SHA-256, so no byte of it can change unnoticed.
 */
export const backupFormatVersion = 1;
const manifestName = "manifest.json";
const commentPrefix = "quorum-backup manifest-sha256=";
/** Where a file may be put back: the secret, or a path under db/ made of plain names (no "..", nothing absolute). */
const restorablePath = /^(secret|db(\/[A-Za-z0-9_][A-Za-z0-9._-]*)+)$/;
const restorableDirectory = /^db(\/[A-Za-z0-9_][A-Za-z0-9._-]*)*$/;
const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

export const manifestSchema = z.object({
  format: z.literal("quorum-backup"),
  formatVersion: z.literal(backupFormatVersion),
  createdAt: z.string(),
  quorumVersion: z.string(),
  /** "running server": copied from the server while it ran; "stopped": from a DATA_DIR no process had open. */
  source: z.enum(["running server", "stopped"]),
  /** How long the running server's database was held still for the copy. */
  heldMs: z.number().nullable(),
  newestMigration: z.number(),
  directories: z.array(z.string().regex(restorableDirectory)),
  files: z.array(z.object({ path: z.string().regex(restorablePath), bytes: z.number().int().nonnegative(), sha256: sha256Hex })),
  tables: z.array(z.object({ name: z.string(), rows: z.number().int().nonnegative(), sha256: sha256Hex })),
  /** `verified`: whether the chain, recomputed event by event, held when the backup was taken. */
  auditHeads: z.array(
    z.object({ chainKey: z.number().int(), seq: z.number().int().nonnegative(), hash: z.string(), verified: z.boolean() }),
  ),
});
export type Manifest = z.infer<typeof manifestSchema>;

/** A backup refused: the message names what is wrong with it. */
export class BadBackupError extends Error {}

const sha256Of = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");

/** The zip's comment: the manifest's SHA-256. */
export const manifestComment = (manifestText: Buffer | string) => `${commentPrefix}${sha256Of(manifestText)}`;

/** A stream's bytes counted and hashed as they pass. */
function measuring(): Transform & { measured(): { bytes: number; sha256: string } } {
  const hash = createHash("sha256");
  let bytes = 0;
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  return Object.assign(transform, { measured: () => ({ bytes, sha256: hash.digest("hex") }) });
}

/** The size and SHA-256 of a file on disk. */
export async function measureFile(path: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { bytes, sha256: hash.digest("hex") };
}

/**
 * Writes the backup at `file` (refused when it exists): into a file beside it first, linked to its name once whole, so
 * a backup cut short never looks like one and none is written over. `sources` maps each manifest path to its file on disk.
 */
export async function writeBackupFile(file: string, manifest: Manifest, sources: Map<string, string>): Promise<void> {
  const zip = new yazl.ZipFile();
  const manifestText = JSON.stringify(manifest, null, 1);
  // The bulk is usually papers' bytes, compressed already: the fastest deflate makes the file hardly larger.
  for (const { path } of manifest.files) zip.addFile(sources.get(path)!, path, { mode: 0o100600, compressionLevel: 1 });
  zip.addBuffer(Buffer.from(manifestText), manifestName, { mode: 0o100600 });
  zip.end({ forceZip64Format: false, comment: manifestComment(manifestText) });
  const partial = join(dirname(file), `.${randomBytes(6).toString("hex")}.partial`);
  try {
    // The backup holds the secret: readable by its owner alone, from its first byte.
    await pipeline(zip.outputStream, createWriteStream(partial, { flags: "wx", mode: 0o600 }));
    await link(partial, file).catch((error: NodeJS.ErrnoException) => {
      throw error.code === "EEXIST" ? new Error(`${file} exists: name a new file for the backup`) : error;
    });
  } finally {
    await rm(partial, { force: true });
  }
}

async function openZip(file: string): Promise<yauzl.ZipFile> {
  try {
    return await yauzl.openPromise(file, { strictFileNames: true, autoClose: false });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "EACCES" || code === "EISDIR") throw new BadBackupError(`${file} cannot be read: ${code}`);
    throw new BadBackupError(`${file} is not a whole zip file (${(error as Error).message}): a backup cut short or not a backup`);
  }
}

async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, limit: number): Promise<Buffer> {
  if (entry.uncompressedSize > limit) throw new BadBackupError(`${entry.fileName} is larger than a manifest can be`);
  const chunks: Buffer[] = [];
  for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Checks the backup at `file` and writes its files under `target`: refused (BadBackupError, naming the problem)
 * when it is not a zip, is cut short, lacks its manifest, or holds a file whose size or hash is not the manifest's,
 * or one the manifest does not name. What was written under `target` by then is the caller's to remove.
 */
export async function extractBackup(file: string, target: string): Promise<Manifest> {
  const zip = await openZip(file);
  try {
    const entries = new Map<string, yauzl.Entry>();
    for await (const entry of zip.eachEntry()) {
      if (entries.has(entry.fileName)) throw new BadBackupError(`${file} holds ${entry.fileName} twice`);
      entries.set(entry.fileName, entry);
    }
    const manifestEntry = entries.get(manifestName);
    if (!manifestEntry) throw new BadBackupError(`${file} has no ${manifestName}: not a Quorum backup`);
    const manifest = await readManifest(zip, manifestEntry, file);
    const named = new Set(manifest.files.map((part) => part.path));
    for (const name of entries.keys()) {
      if (name !== manifestName && !named.has(name)) throw new BadBackupError(`${file} holds ${name}, which its manifest does not name`);
    }
    for (const directory of manifest.directories) await mkdir(join(target, directory), { recursive: true, mode: 0o700 });
    for (const part of manifest.files) {
      const entry = entries.get(part.path);
      if (!entry) throw new BadBackupError(`${file} lacks ${part.path}, which its manifest names`);
      await mkdir(dirname(join(target, part.path)), { recursive: true, mode: 0o700 });
      const measure = measuring();
      try {
        const stream: Readable = await zip.openReadStreamPromise(entry);
        await pipeline(stream, measure, createWriteStream(join(target, part.path), { flags: "wx", mode: 0o600 }));
      } catch (error) {
        throw new BadBackupError(`${part.path} in ${file} cannot be read whole (${(error as Error).message}): the file is damaged`);
      }
      const measured = measure.measured();
      if (measured.bytes !== part.bytes || measured.sha256 !== part.sha256) {
        throw new BadBackupError(`${part.path} in ${file} is damaged: its SHA-256 is ${measured.sha256}, the manifest's ${part.sha256}`);
      }
    }
    return manifest;
  } finally {
    zip.close();
  }
}

async function readManifest(zip: yauzl.ZipFile, entry: yauzl.Entry, file: string): Promise<Manifest> {
  const expected =
    typeof zip.comment === "string" && zip.comment.startsWith(commentPrefix) ? zip.comment.slice(commentPrefix.length) : null;
  if (!expected) throw new BadBackupError(`${file} does not say its manifest's SHA-256: not a Quorum backup`);
  let text: Buffer;
  try {
    text = await readEntry(zip, entry, 64 * 1024 * 1024);
  } catch (error) {
    if (error instanceof BadBackupError) throw error;
    throw new BadBackupError(`${manifestName} in ${file} cannot be read whole (${(error as Error).message}): the file is damaged`);
  }
  if (sha256Of(text) !== expected)
    throw new BadBackupError(`${manifestName} in ${file} is damaged: its SHA-256 is not the one the file gives`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.toString("utf8"));
  } catch {
    throw new BadBackupError(`${manifestName} in ${file} is not JSON`);
  }
  const manifest = manifestSchema.safeParse(parsed);
  if (!manifest.success) {
    const version = (parsed as { formatVersion?: unknown } | null)?.formatVersion;
    if (typeof version === "number" && version !== backupFormatVersion) {
      throw new BadBackupError(`${file} is a backup of format ${version}; this Quorum reads format ${backupFormatVersion}`);
    }
    throw new BadBackupError(`${manifestName} in ${file} is not a Quorum backup's manifest (${manifest.error.issues[0]?.message})`);
  }
  return manifest.data;
}
