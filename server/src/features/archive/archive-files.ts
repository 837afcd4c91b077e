// The papers/, minutes/ and certificates/ folders of the archive: where each stored file goes, and how its bytes are
// opened when its turn comes (a certificate's PDF is the one filed in the library, or made from the frozen certificate).
import { Readable } from "node:stream";
import type { ServiceDeps } from "../../app-deps";
import { versionFileName } from "../documents/versions.service";
import { certificateDocumentName, renderVoteCertificatePdf, renderWrittenCertificatePdf } from "../resolutions/certificate-pdfs.service";
import {
  openStoredFile,
  type EarlierVersionRow,
  type MeetingRow,
  type MinutesRow,
  type PaperRow,
  type StoredFile,
} from "./archive-files.data";
import type { ResolutionRow } from "./archive-records.data";
import { ArchivePaths, datedPart, safePart, titledPart } from "./archive-paths";
import { textStream, type ArchiveEntry } from "./archive-writer";

type StoreDeps = ServiceDeps<"db" | "clock" | "appSecret" | "outbound">;

/** The folder of papers no meeting's agenda lists. */
export const libraryFolder = "Library";

/** Each meeting's folder name: its date, title and id. */
export function meetingFolders(meetings: MeetingRow[]): Map<number, string> {
  return new Map(meetings.map((meeting) => [meeting.id, datedPart(meeting.startsAt, meeting.title, meeting.id)]));
}

export interface PaperSources {
  papers: PaperRow[];
  earlier: EarlierVersionRow[];
  paperMeetings: Map<number, number>;
  meetingFolders: Map<number, string>;
}

/** papers/<meeting folder or Library>/<category>/<title (id)>/v<N> <file name>: every version of every paper, oldest first. */
export function paperEntries(deps: StoreDeps, paths: ArchivePaths, sources: PaperSources): ArchiveEntry[] {
  const earlierOf = new Map<number, EarlierVersionRow[]>();
  for (const row of sources.earlier) earlierOf.set(row.documentId, [...(earlierOf.get(row.documentId) ?? []), row]);
  return sources.papers.flatMap((paper) => {
    const meetingId = sources.paperMeetings.get(paper.id);
    const place = (meetingId !== undefined && sources.meetingFolders.get(meetingId)) || libraryFolder;
    const folder = ["papers", place, safePart(paper.category), titledPart(paper.name, paper.id)];
    if (!paper.hasFile) {
      // A note: its text is the paper.
      const name = /\.txt$/i.test(paper.name) ? paper.name : `${paper.name}.txt`;
      const text = paper.description ?? "";
      return [{ path: paths.claim(...folder, `v1 ${name}`), open: () => textStream([text]), compress: true, mtime: paper.uploadedAt }];
    }
    const versions = [
      ...(earlierOf.get(paper.id) ?? []).map((row) => ({ ...row, row: { documentId: paper.id, version: row.version } })),
      { ...paper, documentId: paper.id, row: { documentId: paper.id, version: null } },
    ];
    return versions.map((version): ArchiveEntry => {
      const stored: StoredFile = { ...version, storage: version.storage ?? "database" };
      return {
        path: paths.claim(...folder, `v${version.version} ${versionFileName(paper.name, version.fileType)}`),
        open: () => openStoredFile(deps, stored),
        compress: false,
        mtime: version.uploadedAt,
      };
    });
  });
}

/** minutes/<meeting folder>/<the PDF's name>: the approved minutes as filed in the library. */
export function minutesEntries(deps: StoreDeps, paths: ArchivePaths, minutes: MinutesRow[], folders: Map<number, string>): ArchiveEntry[] {
  return minutes.map((row) => {
    const stored: StoredFile = { ...row, row: { documentId: row.documentId, version: null } };
    return {
      path: paths.claim("minutes", folders.get(row.meetingId) ?? `Meeting ${row.meetingId}`, row.name),
      open: () => openStoredFile(deps, stored),
      compress: false,
      mtime: row.approvedAt ?? undefined,
    };
  });
}

export interface CertificateSources {
  company: string;
  resolutions: ResolutionRow[];
  /** Written resolutions' certificates filed in the library, by document name. */
  filed: Map<string, StoredFile>;
}

const jsonText = (value: unknown) => textStream([`${JSON.stringify(value, null, 2)}\n`]);
const pdfStream = async (made: Promise<Uint8Array>) => Readable.from([Buffer.from(await made)]);

/**
 * certificates/<id> <title>/certificate.json and certificate.pdf, for every decided resolution: the frozen certificate,
 * and its PDF (which carries the same certificate inside). A written resolution's PDF is the one filed in the library
 * when it is there (a certificate not yet filed is made as it would be filed); a voted one's is made from its certificate.
 * Answers the entries and each resolution's folder.
 */
export function certificateEntries(
  deps: StoreDeps,
  paths: ArchivePaths,
  sources: CertificateSources,
): { entries: ArchiveEntry[]; folders: Map<number, string> } {
  const entries: ArchiveEntry[] = [];
  const folders = new Map<number, string>();
  for (const resolution of sources.resolutions) {
    const folder = titledPart(resolution.title, resolution.id);
    const at = resolution.decidedAt ?? undefined;
    const add = (certificate: unknown, openPdf: () => Promise<Readable>) => {
      folders.set(resolution.id, `certificates/${safePart(folder)}`);
      entries.push({
        path: paths.claim("certificates", folder, "certificate.json"),
        open: () => jsonText(certificate),
        compress: true,
        mtime: at,
      });
      entries.push({ path: paths.claim("certificates", folder, "certificate.pdf"), open: openPdf, compress: false, mtime: at });
    };
    const written = resolution.writtenCertificate;
    if (written) {
      const filed = sources.filed.get(certificateDocumentName(written));
      add(written, () =>
        filed ? openStoredFile(deps, filed) : pdfStream(renderWrittenCertificatePdf(written, { company: sources.company })),
      );
    } else if (resolution.certificate) {
      const certificate = resolution.certificate;
      const about = { ...resolution, company: sources.company };
      add(certificate, () => pdfStream(renderVoteCertificatePdf(certificate, about)));
    }
  }
  return { entries, folders };
}
