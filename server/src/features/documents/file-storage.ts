import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { and, asc, eq, gt, lte, sql } from "drizzle-orm";
import type { ServiceDeps } from "../../app-deps";
import type { Queryable } from "../../db/client";
import type { ByteRange } from "../../http/byte-range";
import { fileChunks, fileSweep } from "../../db/schema";
import { openObjectStore, objectStoreConfig, parseLocation, type ObjectStoreConfig } from "../../integrations/object-storage";
import { findEnabledServiceCredentials, findServiceCredentials } from "../../integrations/service-credentials";

/**
 * Where file bytes live. Default: in the database, as `file_chunks` rows of at most 1 MiB. When an enabled
 * platform service named "Storage" exists: in its S3-compatible bucket. Each file records its own place
 * (storage kind, the bucket's location, the key), so a change of configuration never strands a file.
 */
export const storageServiceName = "Storage";
const chunkBytes = 1024 * 1024;
/** An upload whose document was never committed (a crash, a dropped connection) is swept after this. */
const abandonedUploadMs = 60 * 60 * 1000;

export type FileTarget = { storage: "database"; location: null } | { storage: "s3"; location: string; config: ObjectStoreConfig };

export interface FilePlace {
  storage: "database" | "s3";
  location: string | null;
  storageKey: string;
}

type StorageDeps = ServiceDeps<"db" | "clock" | "appSecret" | "outbound">;

/** Where a new file goes now. */
export async function currentFileTarget({ db, appSecret }: StorageDeps): Promise<FileTarget> {
  const service = await findEnabledServiceCredentials(db, appSecret, storageServiceName);
  if (!service) return { storage: "database", location: null };
  const config = objectStoreConfig(service);
  return { storage: "s3", location: config.location, config };
}

/** The object store holding a file: its recorded location, with the Storage service's credentials. */
async function storeAt({ db, appSecret, outbound }: StorageDeps, location: string | null) {
  if (!location) throw new Error("an object-storage file without a location");
  const service = await findServiceCredentials(db, appSecret, storageServiceName);
  if (!service) throw new Error("a file is in object storage but no Storage service is configured");
  return openObjectStore({ ...objectStoreConfig(service), ...parseLocation(location) }, outbound);
}

/*
 * Chunks cross the driver as base64 text, decoded and encoded by the database. The embedded database's driver
 * writes a bytea parameter as hex one byte at a time in JavaScript (about half a second per MiB, so 10 s for a
 * 20 MiB file) and reads it back the same way; base64 through Postgres' own decode/encode is some 15 times faster
 * there, and no slower on a real Postgres.
 */
const bytesAsBase64 = (chunk: Buffer) => sql`decode(${chunk.toString("base64")}, 'base64')`;
const base64Bytes = sql<string>`encode(${fileChunks.bytes}, 'base64')`;
/** `length` bytes of a chunk from offset `from`, cut by the database: only they cross the driver. */
const slicedBytes = (from: number, length: number) =>
  sql<string>`encode(substring(${fileChunks.bytes} from ${from + 1} for ${length}), 'base64')`;

/** Re-slices arriving bytes into chunks of exactly `size` (the last one shorter). */
async function* slices(source: AsyncIterable<Buffer>, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const chunk of source) {
    let rest = chunk;
    while (pendingBytes + rest.length >= size) {
      const take = size - pendingBytes;
      pending.push(rest.subarray(0, take));
      yield Buffer.concat(pending, size);
      pending = [];
      pendingBytes = 0;
      rest = rest.subarray(take);
    }
    if (rest.length > 0) {
      pending.push(rest);
      pendingBytes += rest.length;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending, pendingBytes);
}

/**
 * Writes a file to `target` as its bytes arrive. Before the first byte, the place is registered for the
 * sweep (due in an hour), so bytes whose document is never committed are removed; `claimFile` in the
 * document's transaction takes them off it. A failure (including a failed check thrown by `source`)
 * removes whatever was written, then rethrows.
 */
export async function writeFile(
  deps: StorageDeps,
  target: FileTarget,
  source: AsyncIterable<Buffer>,
  contentType: string,
): Promise<FilePlace> {
  const place: FilePlace = { storage: target.storage, location: target.location, storageKey: randomUUID() };
  await deps.db.insert(fileSweep).values({ ...place, dueAt: new Date(deps.clock.now().getTime() + abandonedUploadMs) });
  try {
    if (target.storage === "s3") {
      await openObjectStore(target.config, deps.outbound).put(place.storageKey, source, contentType);
    } else {
      let seq = 0;
      for await (const chunk of slices(source, chunkBytes)) {
        await deps.db.insert(fileChunks).values({ storageKey: place.storageKey, seq, bytes: bytesAsBase64(chunk) });
        seq += 1;
      }
    }
  } catch (error) {
    await discardFile(deps, place).catch(() => undefined);
    throw error;
  }
  return place;
}

/** In the transaction that commits a file's document: its bytes are owned now, no longer swept. */
export async function claimFile(tx: Queryable, place: FilePlace): Promise<void> {
  await tx.delete(fileSweep).where(eq(fileSweep.storageKey, place.storageKey));
}

/** Removes a file's bytes wherever they are, and any sweep entry for them. */
export async function discardFile(deps: StorageDeps, place: FilePlace): Promise<void> {
  if (place.storage === "s3") {
    await (await storeAt(deps, place.location)).remove(place.storageKey);
  } else {
    await deps.db.delete(fileChunks).where(eq(fileChunks.storageKey, place.storageKey));
  }
  await deps.db.delete(fileSweep).where(eq(fileSweep.storageKey, place.storageKey));
}

/**
 * In the transaction that deletes a document: bytes in the database go with it; an object in S3 cannot
 * join the transaction, so it is registered for the sweep (due now) and removed after the commit.
 */
export async function releaseFile(tx: Queryable, now: Date, place: FilePlace): Promise<void> {
  if (place.storage === "database") {
    await tx.delete(fileChunks).where(eq(fileChunks.storageKey, place.storageKey));
  } else {
    await tx.insert(fileSweep).values({ ...place, dueAt: now });
  }
}

/** Removes the bytes of every due sweep entry (a few at a time); a failure leaves the entry for next time. */
export async function sweepFiles(deps: StorageDeps, limit = 20): Promise<number> {
  const due = await deps.db
    .select({ storage: fileSweep.storage, location: fileSweep.location, storageKey: fileSweep.storageKey })
    .from(fileSweep)
    .where(lte(fileSweep.dueAt, deps.clock.now()))
    .orderBy(asc(fileSweep.dueAt))
    .limit(limit);
  let removed = 0;
  for (const place of due) {
    try {
      await discardFile(deps, place);
      removed += 1;
    } catch {
      // Object storage unreachable: the entry stays and is retried by a later sweep.
    }
  }
  return removed;
}

/**
 * A stored file's bytes as a stream, read a chunk at a time; with `range` (both ends included, within the file), only
 * those bytes: from the database only the chunks holding them, each cut to the range there; from the object store
 * a ranged GET.
 */
export async function readFile(deps: StorageDeps, place: FilePlace & { bytes?: Buffer | null }, range?: ByteRange): Promise<Readable> {
  if (place.bytes) return Readable.from([range ? place.bytes.subarray(range.start, range.end + 1) : place.bytes]);
  if (place.storage === "s3") return (await storeAt(deps, place.location)).get(place.storageKey, range);
  const { db } = deps;
  const last = range ? Math.floor(range.end / chunkBytes) : null;
  async function* chunks(): AsyncGenerator<Buffer> {
    let seq = range ? Math.floor(range.start / chunkBytes) - 1 : -1;
    for (;;) {
      const next = seq + 1;
      // Chunk `n` holds the file's bytes from n MiB: the first and last chunks of a range are cut by the database.
      const from = range ? Math.max(range.start - next * chunkBytes, 0) : 0;
      const length = range ? Math.min(range.end + 1 - next * chunkBytes, chunkBytes) - from : chunkBytes;
      const [row] = await db
        .select({ seq: fileChunks.seq, bytes: range ? slicedBytes(from, length) : base64Bytes })
        .from(fileChunks)
        .where(and(eq(fileChunks.storageKey, place.storageKey), range ? eq(fileChunks.seq, next) : gt(fileChunks.seq, seq)))
        .orderBy(asc(fileChunks.seq))
        .limit(1);
      if (!row) return;
      seq = row.seq;
      yield Buffer.from(row.bytes, "base64");
      if (last !== null && seq >= last) return;
    }
  }
  return Readable.from(chunks());
}
