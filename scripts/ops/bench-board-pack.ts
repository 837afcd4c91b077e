// The board pack part of `npm run bench`: a meeting of 12 agenda items with 24 ten-page PDF papers (about 250
// pages in all) seeded straight into the database, then the pack built a few times one after another (time to
// first byte and total time, medians; the stored pack dropped before each) and served again from the store. Then
// the event loop under packs: five members, each of a company of their own, build the pack of a meeting of their
// own (the same papers) at once, while a vote poll runs; its p99 against its idle p99, and the server's peak resident memory growth.
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { PDFDocument, StandardFonts } from "@cantoo/pdf-lib";
import autocannon, { type AutocannonResult } from "autocannon";
import { inArray } from "drizzle-orm";
import { meetingCategory } from "../../shared/meeting-model";
import { openDatabase } from "../../server/src/db/client";
import { systemClock } from "../../server/src/clock";
import {
  agendaItemDocuments,
  agendaItems,
  boardPacks,
  companies,
  documentFiles,
  documents,
  fileChunks,
  meetings,
  memberships,
  users,
} from "../../server/src/db/schema";
import { createSession } from "../../server/src/http/session";
import { defaultLimits } from "../../server/src/limits";

const ITEMS = 12;
const PAPERS_PER_ITEM = 2;
const PAGES_PER_PAPER = 10;
/** Packs built at once, each by a member of a company of their own (one build per member and per company at a time). */
const CONCURRENT = 5;
/** The agenda's pages: twelve items, each with its time, purpose and papers, take two. */
const AGENDA_PAGES = 2;
/** Cover, agenda, one section page per item, and the papers' pages. */
const expectedPackPages = 1 + AGENDA_PAGES + ITEMS + ITEMS * PAPERS_PER_ITEM * PAGES_PER_PAPER;
/**
 * The targets: the whole pack within this many ms; while five packs build at once, the vote poll's p99 under this
 * many times its idle p99 and the server within this much more memory (MB).
 */
const targets = { totalMs: 3_000, pollSlowdown: 2, memoryMb: 300 };

const sentence =
  "The committee reviewed the quarterly figures, the forecast for the coming year and the risks the auditors raised, and agreed the actions below.";

/** A paper of ten pages, each with a heading and some thirty lines of text, as a board paper has. */
async function paper(number: number): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  for (let page = 1; page <= PAGES_PER_PAPER; page += 1) {
    const sheet = pdf.addPage([595.28, 841.89]);
    sheet.drawText(`Board paper ${number}, page ${page}`, { x: 56, y: 780, size: 16, font: bold });
    for (let line = 0; line < 30; line += 1) {
      sheet.drawText(`${line + 1}. ${sentence.slice(0, 60 + ((line * 7 + page) % 70))}`, { x: 56, y: 740 - line * 22, size: 10, font });
    }
  }
  return Buffer.from(await pdf.save());
}

export interface PackSeed {
  databaseUrl: string;
  /** One meeting per member, each in a company of its own, the same agenda and papers in each; the first is the founder's. */
  packs: { meetingId: number; token: string }[];
}

/**
 * Seeds companies of their own (so the other endpoints' figures see the data they always saw), one per member (a
 * company builds one pack at a time), each with a meeting with the same agenda and papers (stored as the app stores
 * files: in chunks).
 */
export async function seedBoardPack(databaseUrl: string): Promise<PackSeed> {
  const handle = await openDatabase({ databaseUrl, dataDir: "memory://" });
  const db = handle.db;
  try {
    const papers: Buffer[] = [];
    for (let number = 1; number <= ITEMS * PAPERS_PER_ITEM; number += 1) papers.push(await paper(number));
    const suffix = randomUUID().slice(0, 8);
    const packs: PackSeed["packs"] = [];
    for (let n = 0; n < CONCURRENT; n += 1) {
      const [company] = await db
        .insert(companies)
        .values({ name: `Pack Holdings ${n + 1}`, industry: "Technology", location: "London, United Kingdom", stage: "seed" })
        .returning({ id: companies.id });
      const companyId = company!.id;
      const [person] = await db
        .insert(users)
        .values({
          username: `pack${n}${suffix}`,
          email: `pack${n}${suffix}@example.com`,
          passwordHash: "not-a-password",
          firstName: "Pat",
          lastName: `Pack ${n + 1}`,
          activeCompanyId: companyId,
        })
        .returning({ id: users.id });
      await db.insert(memberships).values({ userId: person!.id, companyId, role: "founder" });
      const paperIds: number[] = [];
      for (const [index, bytes] of papers.entries()) {
        const [document] = await db
          .insert(documents)
          .values({
            companyId,
            name: `Board paper ${index + 1}.pdf`,
            fileType: "application/pdf",
            fileSize: bytes.length,
            category: "Financial",
          })
          .returning({ id: documents.id });
        const storageKey = randomUUID();
        // Each paper is far below the 1 MiB chunk size: one chunk.
        await db.insert(fileChunks).values({ storageKey, seq: 0, bytes });
        await db.insert(documentFiles).values({
          documentId: document!.id,
          storage: "database",
          storageKey,
          sha256: createHash("sha256").update(bytes).digest("hex"),
        });
        paperIds.push(document!.id);
      }
      const token = await createSession(db, systemClock, person!.id, "bench", { maxPerUser: defaultLimits.sessionsPerUser });
      const start = new Date(Date.now() + (14 + n) * 24 * 60 * 60 * 1000);
      const [meetingDocument] = await db
        .insert(documents)
        .values({ companyId, name: `Meeting: Pack benchmark ${n + 1}`, fileType: "application/json", category: meetingCategory })
        .returning({ id: documents.id });
      const meetingId = meetingDocument!.id;
      await db.insert(meetings).values({
        documentId: meetingId,
        companyId,
        title: `Pack benchmark ${n + 1}`,
        startsAt: start,
        endsAt: new Date(start.getTime() + 2 * 60 * 60 * 1000),
        location: "Virtual (Zoom)",
        status: "confirmed",
        createdBy: person!.id,
      });
      const items = await db
        .insert(agendaItems)
        .values(
          Array.from({ length: ITEMS }, (_, index) => ({
            meetingId,
            position: index,
            title: `Agenda item ${index + 1}`,
            durationMinutes: 10,
            description: `${sentence} ${sentence}`,
          })),
        )
        .returning({ id: agendaItems.id });
      await db.insert(agendaItemDocuments).values(
        items.flatMap(({ id }, index) =>
          Array.from({ length: PAPERS_PER_ITEM }, (_, position) => ({
            itemId: id,
            documentId: paperIds[index * PAPERS_PER_ITEM + position]!,
            position,
          })),
        ),
      );
      packs.push({ meetingId, token });
    }
    return { databaseUrl, packs };
  } finally {
    await handle.close();
  }
}

/** Drops the stored packs of these meetings, so the next download builds again. */
async function dropStoredPacks(databaseUrl: string, meetingIds: number[]): Promise<void> {
  const handle = await openDatabase({ databaseUrl, dataDir: "memory://" });
  try {
    await handle.db.delete(boardPacks).where(inArray(boardPacks.meetingId, meetingIds));
  } finally {
    await handle.close();
  }
}

/** Resident memory of a process in MB (VmRSS), from /proc; undefined where there is none. */
function rssMb(pid: number): number | undefined {
  const file = `/proc/${pid}/status`;
  if (!existsSync(file)) return undefined;
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(file, "utf8"))?.[1];
  return kb === undefined ? undefined : Number(kb) / 1024;
}

/** Peak resident memory since the last reset, in MB (VmHWM). */
function peakMb(pid: number): number | undefined {
  const kb = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return kb === undefined ? undefined : Number(kb) / 1024;
}

/** Resets the process's VmHWM to its current RSS (Linux: clear_refs 5); false when not allowed. */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

interface Download {
  firstByteMs: number;
  totalMs: number;
  bytes: Buffer;
}

async function download(base: string, token: string, meetingId: number): Promise<Download> {
  const started = performance.now();
  const response = await fetch(`${base}/api/meetings/${meetingId}/board-pack.pdf`, { headers: { authorization: `Bearer ${token}` } });
  const firstByteMs = performance.now() - started;
  if (response.status !== 200) throw new Error(`board pack: answered ${response.status}: ${await response.text()}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  return { firstByteMs, totalMs: performance.now() - started, bytes };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** The vote poll (autocannon, 10 connections) until `until` settles, or for `seconds`. */
function poll(base: string, request: { path: string; token: string }, run: { seconds: number } | { until: Promise<unknown> }) {
  return new Promise<AutocannonResult>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${base}${request.path}`,
        connections: 10,
        duration: "seconds" in run ? run.seconds : 600,
        timeout: 10,
        headers: { authorization: `Bearer ${request.token}` },
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    if ("until" in run) void run.until.finally(() => instance.stop());
  });
}

/**
 * Measures the pack against a running server: one download to warm up (and to check the pack), `runs` builds one
 * after another, one download from the store, then five members' packs at once while the vote poll runs and the
 * server's memory is sampled. Answers the lines to print; throws when the pack is not what was seeded.
 */
export async function measureBoardPack(
  server: { base: string; pid: number | undefined },
  seed: PackSeed,
  runs: number,
  votePoll: { path: string; token: string },
  pollSeconds: number,
) {
  const { meetingId, token } = seed.packs[0]!;
  const warm = await download(server.base, token, meetingId);
  const pages = (await PDFDocument.load(warm.bytes, { updateMetadata: false })).getPageCount();
  if (pages !== expectedPackPages) throw new Error(`board pack: ${pages} pages, expected ${expectedPackPages}`);

  const sequential: Download[] = [];
  for (let run = 0; run < runs; run += 1) {
    await dropStoredPacks(seed.databaseUrl, [meetingId]);
    sequential.push(await download(server.base, token, meetingId));
  }
  const firstByte = median(sequential.map((run) => run.firstByteMs));
  const total = median(sequential.map((run) => run.totalMs));
  const fromStore = await download(server.base, token, meetingId);

  const idle = await poll(server.base, votePoll, { seconds: pollSeconds });

  // Peak memory: sampled every 10 ms, and the kernel's own high-water mark (VmHWM) reset just before.
  await dropStoredPacks(
    seed.databaseUrl,
    seed.packs.map((pack) => pack.meetingId),
  );
  const pid = server.pid;
  const readable = pid !== undefined && rssMb(pid) !== undefined;
  const before = readable ? rssMb(pid)! : 0;
  const hwmReset = readable && resetPeak(pid);
  let sampled = before;
  const sampler = readable ? setInterval(() => (sampled = Math.max(sampled, rssMb(pid) ?? 0)), 10) : undefined;
  const started = performance.now();
  const packs = Promise.all(seed.packs.slice(0, CONCURRENT).map((pack) => download(server.base, pack.token, pack.meetingId)));
  const busy = await poll(server.base, votePoll, { until: packs });
  await packs;
  const concurrentMs = performance.now() - started;
  clearInterval(sampler);
  const memory = readable ? { before, peak: Math.max(sampled, hwmReset ? (peakMb(pid) ?? 0) : 0) } : undefined;

  const growth = memory ? memory.peak - memory.before : undefined;
  const slowdown = busy.latency.p99 / Math.max(1, idle.latency.p99);
  const pollErrors = idle.errors + idle.timeouts + idle.non2xx + busy.errors + busy.timeouts + busy.non2xx;
  const within =
    total <= targets.totalMs && slowdown < targets.pollSlowdown && pollErrors === 0 && (growth === undefined || growth <= targets.memoryMb);
  const mb = (value: number) => `${Math.round(value)} MB`;
  return {
    within,
    lines: [
      `Board pack (${ITEMS} items, ${ITEMS * PAPERS_PER_ITEM} papers of ${PAGES_PER_PAPER} pages: ${pages} pages, ${(warm.bytes.length / 1024).toFixed(0)} KB, built in a worker):` +
        ` first byte ${firstByte.toFixed(0)} ms, whole pack ${total.toFixed(0)} ms (medians of ${runs} builds in a row; target under ${targets.totalMs / 1000} s);` +
        ` served again from the store in ${fromStore.totalMs.toFixed(0)} ms.`,
      "",
      `The event loop under packs: ${CONCURRENT} members' packs built at once (at most 2 at a time, the rest queued) in ${concurrentMs.toFixed(0)} ms;` +
        ` the vote poll (10 connections) p99 ${idle.latency.p99} ms idle, ${busy.latency.p99} ms meanwhile (${slowdown.toFixed(2)}×; target under ${targets.pollSlowdown}×, ${pollErrors} errors)` +
        (memory && growth !== undefined
          ? `; resident memory ${mb(memory.before)} → peak ${mb(memory.peak)} (+${mb(growth)}; target under ${targets.memoryMb} MB).`
          : "; resident memory not readable on this system."),
    ],
  };
}
