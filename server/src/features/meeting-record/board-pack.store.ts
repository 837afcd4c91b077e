// Built board packs kept in the file store, one per meeting under its tag, and read back.
import { Readable } from "node:stream";
import { and, eq } from "drizzle-orm";
import { boardPacks } from "../../db/schema";
import type { ByteRange } from "../../http/byte-range";
import { claimFile, currentFileTarget, discardFile, readFile, releaseFile, writeFile } from "../documents/documents.service";
import type { PackDeps } from "./board-pack.limits";

/** A stored pack of the meeting under this tag, or null. */
export async function storedPack(
  deps: PackDeps,
  meetingId: number,
  etag: string,
): Promise<{ byteSize: number; open: (range?: ByteRange) => Promise<Readable> } | null> {
  const [row] = await deps.db
    .select()
    .from(boardPacks)
    .where(and(eq(boardPacks.meetingId, meetingId), eq(boardPacks.etag, etag)));
  return row ? { byteSize: row.byteSize, open: (range) => readFile(deps, row, range) } : null;
}

/**
 * Keeps a built pack under its tag in the file store, in place of the meeting's earlier pack (whose bytes go in
 * the same transaction, or to the sweep when in object storage). The bytes are written first, on the sweep until
 * the row that owns them is committed.
 */
export async function storePack(deps: PackDeps, meetingId: number, etag: string, pack: Uint8Array): Promise<void> {
  const target = await currentFileTarget(deps);
  const bytes = Buffer.from(pack.buffer, pack.byteOffset, pack.byteLength);
  const place = await writeFile(deps, target, Readable.from([bytes]), "application/pdf");
  try {
    await deps.db.transaction(async (tx) => {
      const [earlier] = await tx.select().from(boardPacks).where(eq(boardPacks.meetingId, meetingId)).for("update");
      const row = { etag, ...place, byteSize: pack.byteLength, createdAt: deps.clock.now() };
      await tx
        .insert(boardPacks)
        .values({ meetingId, ...row })
        .onConflictDoUpdate({ target: boardPacks.meetingId, set: row });
      await claimFile(tx, place);
      if (earlier) await releaseFile(tx, deps.clock.now(), earlier);
    });
  } catch (error) {
    await discardFile(deps, place).catch(() => undefined);
    throw error;
  }
}
