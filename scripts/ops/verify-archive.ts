// The offline check of a board's archive (npm run audit -- verify-archive <file.zip>), with no database and no network.
// The zip's directory is read first, then manifest.json; then every file in the zip's order, each read once: it must be
// listed, and its SHA-256 and size must be the manifest's; audit.jsonl's chain must hold and end at the manifest's head
// (its lines are checked as they are hashed); each certificate must hold, and the copy inside its PDF be its JSON
// (checked once both are read). The first file that does not hold is named. Exit codes as `verify`: 0 ok, 1 broken, 2 unreadable.
import { createHash } from "node:crypto";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { PassThrough, type Readable } from "node:stream";
import { openPromise, type Entry, type ZipFile } from "yauzl";
import { checkExportLines, type ExportVerdict } from "./audit-export-check";
import { checkArchivedCertificate } from "./archive-certificates";

export interface ArchiveVerdict {
  code: 0 | 1 | 2;
  lines: string[];
}

const manifestName = "manifest.json";
const auditName = "audit.jsonl";
/** Bounds on what is held in memory to be read whole: a manifest of a million files, a certificate's PDF. */
const maxManifestBytes = 256 * 1024 * 1024;
const maxCertificateBytes = 64 * 1024 * 1024;

interface Manifest {
  auditHeadHash: string;
  files: { path: string; sha256: string; bytes: number }[];
}

/** Why a parsed manifest.json is not one, or null. */
function notAManifest(value: unknown): string | null {
  if (typeof value !== "object" || value === null) return "it is not a JSON object";
  const manifest = value as Record<string, unknown>;
  if (typeof manifest.auditHeadHash !== "string") return "it has no auditHeadHash";
  if (!Array.isArray(manifest.files)) return "it has no list of files";
  const bad = manifest.files.findIndex(
    (file: unknown) =>
      typeof file !== "object" ||
      file === null ||
      typeof (file as Record<string, unknown>).path !== "string" ||
      typeof (file as Record<string, unknown>).sha256 !== "string" ||
      !Number.isSafeInteger((file as Record<string, unknown>).bytes),
  );
  return bad >= 0 ? `its file number ${bad + 1} lacks a path, sha256 or bytes` : null;
}

async function readWhole(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      stream.destroy();
      throw new Error(`it is larger than ${limit} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** A file's bytes hashed and counted as they are read; audit.jsonl's lines checked on the way, certificates kept. */
async function measureEntry(zip: ZipFile, entry: Entry) {
  const stream = await zip.openReadStreamPromise(entry);
  const hash = createHash("sha256");
  let bytes = 0;
  const keep = entry.fileName.startsWith("certificates/") ? ([] as Buffer[]) : null;
  const lines = entry.fileName === auditName ? new PassThrough() : null;
  const audit: Promise<ExportVerdict> | null = lines ? checkExportLines(createInterface({ input: lines, crlfDelay: Infinity })) : null;
  // A trail found broken early stops reading lines: the rest of the file is still hashed, not fed to it.
  let auditDone = false;
  const stopFeeding = () => {
    auditDone = true;
    lines?.resume();
  };
  audit?.then(stopFeeding, stopFeeding);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      hash.update(chunk);
      bytes += chunk.length;
      if (keep && bytes <= maxCertificateBytes) keep.push(chunk);
      // Waits for the check to take the lines in: its memory stays a few lines'.
      if (lines && !auditDone && !lines.write(chunk)) await Promise.race([once(lines, "drain"), audit]);
    }
  } finally {
    lines?.end();
  }
  return { sha256: hash.digest("hex"), bytes, kept: keep ? Buffer.concat(keep) : null, audit: audit ? await audit : null };
}

const broken = (path: string, reason: string): ArchiveVerdict => ({ code: 1, lines: [`broken: ${path}: ${reason}`] });

async function check(zip: ZipFile): Promise<ArchiveVerdict> {
  const entries: Entry[] = [];
  const seen = new Set<string>();
  for await (const entry of zip.eachEntry()) {
    if (seen.has(entry.fileName)) return broken(entry.fileName, "the zip holds two files of this name");
    seen.add(entry.fileName);
    entries.push(entry);
  }
  const manifestEntry = entries.find((entry) => entry.fileName === manifestName);
  if (!manifestEntry) return broken(manifestName, "the zip has no manifest");
  let manifest: Manifest;
  try {
    const value = JSON.parse(
      (await readWhole(await zip.openReadStreamPromise(manifestEntry), maxManifestBytes)).toString("utf8"),
    ) as unknown;
    const problem = notAManifest(value);
    if (problem) return broken(manifestName, problem);
    manifest = value as Manifest;
  } catch (error) {
    return broken(manifestName, `it cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }

  const listed = new Map(manifest.files.map((file) => [file.path, file]));
  const certificates = new Map<string, { json?: Buffer; pdf?: Buffer }>();
  const kinds = { written: 0, voted: 0 };
  const checkCertificate = async (folder: string): Promise<ArchiveVerdict | null> => {
    const pair = certificates.get(folder)!;
    certificates.delete(folder);
    const verdict = await checkArchivedCertificate(pair.json, pair.pdf);
    if (!verdict.ok) return broken(`${folder}/${verdict.file}`, verdict.reason);
    kinds[verdict.kind] += 1;
    return null;
  };
  let totalBytes = 0;
  let auditVerdict: (ExportVerdict & { ok: true }) | null = null;
  for (const entry of entries) {
    if (entry === manifestEntry) continue;
    const expected = listed.get(entry.fileName);
    if (!expected) return broken(entry.fileName, "the manifest does not list it");
    listed.delete(entry.fileName);
    const measured = await measureEntry(zip, entry);
    if (measured.bytes !== expected.bytes)
      return broken(entry.fileName, `it holds ${measured.bytes} bytes, the manifest says ${expected.bytes}`);
    if (measured.sha256 !== expected.sha256)
      return broken(entry.fileName, `its SHA-256 is ${measured.sha256}, the manifest says ${expected.sha256}`);
    totalBytes += measured.bytes;
    if (measured.audit) {
      if (!measured.audit.ok) return broken(auditName, measured.audit.message);
      if (measured.audit.headHash !== manifest.auditHeadHash) {
        return broken(auditName, `the trail ends at head ${measured.audit.headHash}, the manifest says ${manifest.auditHeadHash}`);
      }
      auditVerdict = measured.audit;
    }
    // A certificate is checked once both its files are read (its JSON comes first), or at the end if one is missing.
    const certificate = /^(certificates\/.+)\/certificate\.(json|pdf)$/.exec(entry.fileName);
    if (certificate && measured.kept) {
      const folder = certificate[1]!;
      const pair = certificates.get(folder) ?? {};
      pair[certificate[2] as "json" | "pdf"] = measured.kept;
      certificates.set(folder, pair);
      const failed = pair.json && pair.pdf ? await checkCertificate(folder) : null;
      if (failed) return failed;
    }
  }
  const missing = [...listed.keys()][0];
  if (missing !== undefined) return broken(missing, "the manifest lists it but the zip does not hold it");
  if (!auditVerdict) return broken(auditName, "the zip has no audit trail");
  for (const folder of [...certificates.keys()]) {
    const failed = await checkCertificate(folder);
    if (failed) return failed;
  }
  return {
    code: 0,
    lines: [
      `ok: ${entries.length - 1} files (${totalBytes} bytes) as manifest.json lists them; ` +
        `the audit trail holds ${auditVerdict.count} events and ends at the manifest's head ${auditVerdict.headHash}; ` +
        `${kinds.written + kinds.voted} certificates hold (${kinds.written} written, ${kinds.voted} voted)`,
    ],
  };
}

/** Checks the archive at `path`; answers the exit code and the lines to print. */
export async function verifyArchive(path: string): Promise<ArchiveVerdict> {
  let zip: ZipFile;
  try {
    zip = await openPromise(path, { lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true });
  } catch (error) {
    return { code: 2, lines: [`Cannot read ${path} as a zip: ${error instanceof Error ? error.message : String(error)}`] };
  }
  try {
    return await check(zip);
  } catch (error) {
    return { code: 2, lines: [`Cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`] };
  } finally {
    zip.close();
  }
}
