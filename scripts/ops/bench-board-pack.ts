// The board pack part of `npm run bench`: a meeting of 12 agenda items with 24 ten-page PDF papers (about 250
// pages in all) seeded straight into the database, then the pack downloaded a few times one after another (time
// to first byte and total time, medians) and five times at once (the server's peak resident memory growth).
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { PDFDocument, StandardFonts } from "@cantoo/pdf-lib";
import { meetingCategory } from "../../shared/meeting-model";
import { openDatabase } from "../../server/src/db/client";
import { systemClock } from "../../server/src/clock";
import {
  agendaItemDocuments,
  agendaItems,
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
const CONCURRENT = 5;
/** Cover, agenda, one section page per item, and the papers' pages. */
const expectedPackPages = 1 + 1 + ITEMS + ITEMS * PAPERS_PER_ITEM * PAGES_PER_PAPER;
/** The targets: the whole pack within this many ms, and five packs at once within this much more memory (MB). */
const targets = { totalMs: 3_000, memoryMb: 150 };

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

/**
 * Seeds a company of its own (so the other endpoints' figures see the data they always saw) with a founder, the
 * meeting, its agenda and its papers (stored as the app stores files: in chunks). Answers the meeting's id and
 * the founder's session token.
 */
export async function seedBoardPack(databaseUrl: string): Promise<{ meetingId: number; token: string }> {
  const handle = await openDatabase({ databaseUrl, dataDir: "memory://" });
  const db = handle.db;
  try {
    const [company] = await db
      .insert(companies)
      .values({ name: "Pack Holdings", industry: "Technology", location: "London, United Kingdom", stage: "seed" })
      .returning({ id: companies.id });
    const companyId = company!.id;
    const suffix = randomUUID().slice(0, 8);
    const [founder] = await db
      .insert(users)
      .values({
        username: `pack${suffix}`,
        email: `pack${suffix}@example.com`,
        passwordHash: "not-a-password",
        firstName: "Pat",
        lastName: "Pack",
        activeCompanyId: companyId,
      })
      .returning({ id: users.id });
    await db.insert(memberships).values({ userId: founder!.id, companyId, role: "founder" });
    const token = await createSession(db, systemClock, founder!.id, "bench", { maxPerUser: defaultLimits.sessionsPerUser });
    const start = new Date(Date.now() + 14 * 24 * 60 * 60 * 1000);
    const [meetingDocument] = await db
      .insert(documents)
      .values({ companyId, name: "Meeting: Pack benchmark", fileType: "application/json", category: meetingCategory })
      .returning({ id: documents.id });
    const meetingId = meetingDocument!.id;
    await db.insert(meetings).values({
      documentId: meetingId,
      companyId,
      title: "Pack benchmark",
      startsAt: start,
      endsAt: new Date(start.getTime() + 2 * 60 * 60 * 1000),
      location: "Virtual (Zoom)",
      status: "confirmed",
      createdBy: founder!.id,
    });
    const paperIds: number[] = [];
    for (let number = 1; number <= ITEMS * PAPERS_PER_ITEM; number += 1) {
      const bytes = await paper(number);
      const [document] = await db
        .insert(documents)
        .values({
          companyId,
          name: `Board paper ${number}.pdf`,
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
    return { meetingId, token };
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

/**
 * Measures the pack against a running server: one download to warm up (and to check the pack), `runs` one after
 * another, then five at once while the server's memory is sampled. Answers the lines to print; throws when the
 * pack is not what was seeded.
 */
export async function measureBoardPack(
  server: { base: string; pid: number | undefined },
  { meetingId, token }: { meetingId: number; token: string },
  runs: number,
) {
  const warm = await download(server.base, token, meetingId);
  const pages = (await PDFDocument.load(warm.bytes, { updateMetadata: false })).getPageCount();
  if (pages !== expectedPackPages) throw new Error(`board pack: ${pages} pages, expected ${expectedPackPages}`);

  const sequential: Download[] = [];
  for (let run = 0; run < runs; run += 1) sequential.push(await download(server.base, token, meetingId));
  const firstByte = median(sequential.map((run) => run.firstByteMs));
  const total = median(sequential.map((run) => run.totalMs));

  // Peak memory: sampled every 10 ms, and the kernel's own high-water mark (VmHWM) reset just before.
  const pid = server.pid;
  const readable = pid !== undefined && rssMb(pid) !== undefined;
  const before = readable ? rssMb(pid)! : 0;
  const hwmReset = readable && resetPeak(pid);
  let sampled = before;
  const sampler = readable ? setInterval(() => (sampled = Math.max(sampled, rssMb(pid) ?? 0)), 10) : undefined;
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENT }, () => download(server.base, token, meetingId)));
  const concurrentMs = performance.now() - started;
  clearInterval(sampler);
  const memory = readable ? { before, peak: Math.max(sampled, hwmReset ? (peakMb(pid) ?? 0) : 0) } : undefined;

  const growth = memory ? memory.peak - memory.before : undefined;
  const within = total <= targets.totalMs && (growth === undefined || growth <= targets.memoryMb);
  const mb = (value: number) => `${Math.round(value)} MB`;
  return {
    within,
    lines: [
      `Board pack (${ITEMS} items, ${ITEMS * PAPERS_PER_ITEM} papers of ${PAGES_PER_PAPER} pages: ${pages} pages, ${(warm.bytes.length / 1024).toFixed(0)} KB):` +
        ` first byte ${firstByte.toFixed(0)} ms, whole pack ${total.toFixed(0)} ms (medians of ${runs} in a row; target under ${targets.totalMs / 1000} s);` +
        ` ${CONCURRENT} at once in ${concurrentMs.toFixed(0)} ms` +
        (memory && growth !== undefined
          ? `, resident memory ${mb(memory.before)} → peak ${mb(memory.peak)} (+${mb(growth)}; target under ${targets.memoryMb} MB).`
          : "; resident memory not readable on this system."),
    ],
  };
}
