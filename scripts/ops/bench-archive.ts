// The board's archive part of `npm run bench`: a company whose papers come to 2 GiB (a few MiB in the CI smoke run),
// stored as the app stores files by default (in the database, 1 MiB chunks), its archive downloaded from an instance
// of its own and read to the end by a sink that keeps nothing; the server's resident memory sampled every 50 ms. The
// papers share a few stored files (each paper's row names one of them): the server reads every paper's bytes anew, a
// chunk at a time, but the seed writes 128 MiB instead of 2 GiB. Figures: size, time, throughput, and RSS growth.
// The smoke run also writes the archive to disk and checks it with verify-archive.
import { randomBytes, randomUUID } from "node:crypto";
import { createWriteStream, existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { sql } from "drizzle-orm";
import { systemClock } from "../../server/src/clock";
import { openDatabase } from "../../server/src/db/client";
import { documentFiles, documents, fileChunks } from "../../server/src/db/schema";
import { createSession } from "../../server/src/http/session";
import { defaultLimits } from "../../server/src/limits";
import { insertBoard } from "./bench-seed";
import { verifyArchive } from "./verify-archive";

export const archivePartName = "archive";
const mebibyte = 1024 * 1024;
/** The target: the server within this much more resident memory (MB) while it streams the archive. */
export const archiveTargets = { rssGrowthMb: 100 };

interface Scale {
  papers: number;
  paperBytes: number;
  /** Distinct stored files the papers share. */
  stored: number;
}

/** 64 papers of 32 MiB (2 GiB) in the full run; two of 2 MiB in the smoke run. */
export const archiveScale = (smoke: boolean): Scale =>
  smoke ? { papers: 2, paperBytes: 2 * mebibyte, stored: 1 } : { papers: 64, paperBytes: 32 * mebibyte, stored: 4 };

export interface ArchiveSeed {
  companyId: number;
  token: string;
  scale: Scale;
}

export async function seedArchive(databaseUrl: string, scale: Scale): Promise<ArchiveSeed> {
  const handle = await openDatabase({ databaseUrl, dataDir: "memory://" });
  const db = handle.db;
  try {
    const { companyId, people } = await insertBoard(db, {
      name: "Archive Holdings",
      stage: "seed",
      handle: "archive",
      firstName: "Founder",
      lastName: "Archive",
      people: 1,
      roleOf: () => "founder",
    });
    const token = await createSession(db, systemClock, people[0]!.id, "bench", { maxPerUser: defaultLimits.sessionsPerUser });
    // Incompressible bytes, a chunk at a time: the seed never holds a whole file.
    const keys: string[] = [];
    for (let file = 0; file < scale.stored; file += 1) {
      const key = randomUUID();
      for (let seq = 0; seq * mebibyte < scale.paperBytes; seq += 1) {
        const bytes = randomBytes(Math.min(mebibyte, scale.paperBytes - seq * mebibyte));
        await db.insert(fileChunks).values({ storageKey: key, seq, bytes: sql`decode(${bytes.toString("base64")}, 'base64')` });
      }
      keys.push(key);
    }
    const papers = await db
      .insert(documents)
      .values(
        Array.from({ length: scale.papers }, (_, index) => ({
          companyId,
          name: `Board paper ${index + 1}.pdf`,
          fileType: "application/pdf",
          fileSize: scale.paperBytes,
          category: "General",
          uploadedBy: people[0]!.id,
        })),
      )
      .returning({ id: documents.id });
    await db
      .insert(documentFiles)
      .values(papers.map(({ id }, index) => ({ documentId: id, storage: "database" as const, storageKey: keys[index % keys.length]! })));
    await db.execute(sql`analyze`);
    return { companyId, token, scale };
  } finally {
    await handle.close();
  }
}

/** A started Quorum instance. */
export interface ArchiveServer {
  base: string;
  pid: number | undefined;
  stop: () => Promise<void>;
}

function rssMb(pid: number | undefined): number {
  if (pid === undefined || !existsSync(`/proc/${pid}/status`)) return NaN;
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return kb === undefined ? NaN : Number(kb) / 1024;
}

const fmt = (value: number, digits = 0) => (Number.isNaN(value) ? "n/a" : value.toFixed(digits));

/** Downloads the archive on a fresh instance into `sink`, sampling the server's memory; answers the figures and the target. */
export async function measureArchive(start: (name: string) => Promise<ArchiveServer>, seed: ArchiveSeed, smoke: boolean) {
  const server = await start("archive");
  const directory = smoke ? await mkdtemp(join(tmpdir(), "quorum-bench-archive-")) : undefined;
  try {
    const headers = { authorization: `Bearer ${seed.token}` };
    // One request first: the instance's pools and code warmed, as they are in service.
    await fetch(`${server.base}/api/auth/user`, { headers }).then((response) => response.arrayBuffer());
    const before = rssMb(server.pid);
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, rssMb(server.pid))), 50);
    const started = performance.now();
    const response = await fetch(`${server.base}/api/companies/${seed.companyId}/archive.zip`, { headers });
    if (response.status !== 200 || !response.body) throw new Error(`bench: the archive answered ${response.status}`);
    let received = 0;
    const counter = new Writable({
      write(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        done();
      },
    });
    const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
    const file = directory ? join(directory, "archive.zip") : undefined;
    if (file) {
      await pipeline(body, createWriteStream(file));
      received = (await stat(file)).size;
    } else {
      await pipeline(body, counter);
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(timer);
    peak = Math.max(peak, rssMb(server.pid));
    const checked = file ? await verifyArchive(file) : undefined;
    if (checked && checked.code !== 0) throw new Error(`bench: the archive does not verify: ${checked.lines.join(" ")}`);
    const growth = peak - before;
    const within = !(growth >= archiveTargets.rssGrowthMb);
    const papers = `${seed.scale.papers} papers of ${seed.scale.paperBytes / mebibyte} MiB in the database`;
    return {
      within,
      lines: [
        `Archive (${papers}): ${fmt(received / mebibyte)} MiB streamed in ${fmt(seconds, 1)} s (${fmt(received / mebibyte / seconds)} MiB/s); ` +
          `server RSS ${fmt(before)} MB before, peak ${fmt(peak)} MB: growth ${fmt(growth)} MB (target < ${archiveTargets.rssGrowthMb} MB)` +
          (checked ? `; ${checked.lines[0]}` : ""),
      ],
    };
  } finally {
    await server.stop();
    if (directory) await rm(directory, { recursive: true, force: true });
  }
}
