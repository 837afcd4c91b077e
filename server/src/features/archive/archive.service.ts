// The board's archive: one zip of the company's whole record. Everything is listed first (a fixed number of queries,
// and any failure still an ordinary error answer); then the entries are streamed one at a time, audit.jsonl first and
// manifest.json last.
import type { ServiceDeps } from "../../app-deps";
import { recordAudit } from "../../db/audit";
import type { TenantContext } from "../../http/request-context";
import { chainHead, exportLines, type ChainHead } from "../audit/audit.service";
import { listCompanyActionItems } from "../meeting-record/action-items.service";
import {
  listApprovedMinutes,
  listEarlierVersions,
  listFiledCertificates,
  listMeetings,
  listPaperMeetings,
  listPapers,
} from "./archive-files.data";
import { certificateEntries, libraryFolder, meetingFolders, minutesEntries, paperEntries } from "./archive-files";
import { ArchivePaths } from "./archive-paths";
import { recordEntries } from "./archive-records";
import { listAgendaItems, listAttendance, listResolutions, listVotes } from "./archive-records.data";
import { manifestPath, textStream, type ArchiveEntry, type ManifestFile } from "./archive-writer";

type ArchiveDeps = ServiceDeps<"db" | "clock" | "appSecret" | "outbound">;

export const auditExportPath = "audit.jsonl";
export const readmePath = "README.txt";

/** manifest.json: every other file's SHA-256 and size, and the audit chain's head that audit.jsonl ends at. */
export interface ArchiveManifest {
  companyId: number;
  companyName: string;
  createdAt: string;
  auditHeadHash: string;
  auditCount: number;
  files: ManifestFile[];
}

export interface PreparedArchive {
  head: ChainHead;
  entries: ArchiveEntry[];
  manifestOf: (files: ManifestFile[]) => ArchiveManifest;
}

function readme(company: string, createdAt: Date, head: ChainHead): string {
  return `The archive of ${company}, made by Quorum on ${createdAt.toISOString()}.

audit.jsonl        The company's audit trail as its export writes it: one event a line in order, then a line
                   with the head hash and count it ends at (${head.count} events, head ${head.headHash}).
papers/            Every version of every paper: papers/<meeting>/<category>/<paper (id)>/v<N> <file name>.
                   A paper on the agenda of several meetings is filed once, under the earliest of them (by start,
                   then id); the agenda items in records/agenda-items list every meeting that took it. Papers on no
                   meeting's agenda are under ${libraryFolder}/. A note is its text, as a .txt file.
minutes/           The approved minutes of each meeting, as the PDF filed when they were approved.
certificates/      For each decided resolution, its frozen certificate (certificate.json) and its PDF
                   (certificate.pdf), which carries the same certificate attached inside. A written resolution's
                   PDF is the one filed in the library.
records/           Resolutions, votes, attendance, action items, meetings and agenda items, as CSV and JSON. In the
                   CSV a cell that begins with = + - or @ is led by an apostrophe, so no spreadsheet runs it.
manifest.json      The last file: the SHA-256 and size of every other file, and the audit head above.

To check this archive offline, with no database and no network:
    npm run audit -- verify-archive <this file.zip>
It checks every file against the manifest, the audit trail's chain and its head, and every certificate.
`;
}

/**
 * Reads the head of the audit chain, records that the archive was taken (an event after that head: the archive's
 * trail ends just before it), and lists everything the archive holds. Nothing is streamed yet.
 */
export async function prepareArchive(
  deps: ArchiveDeps,
  tenant: TenantContext,
  onAuditCutShort: (error: unknown) => void,
): Promise<PreparedArchive> {
  const { id: companyId, name: companyName } = tenant.company;
  const createdAt = deps.clock.now();
  const head = await chainHead(deps.db, companyId);
  await recordAudit(deps.db, deps.clock, {
    actorId: tenant.user.id,
    companyId,
    action: "company.archive_exported",
    targetType: "company",
    targetId: companyId,
    details: { auditHeadHash: head.headHash, auditCount: head.count },
  });

  const papers = await listPapers(deps, companyId);
  const earlier = await listEarlierVersions(deps, companyId);
  const paperMeetings = await listPaperMeetings(deps, companyId);
  const meetings = await listMeetings(deps, companyId);
  const minutes = await listApprovedMinutes(deps, companyId);
  const filed = await listFiledCertificates(deps, companyId);
  const resolutions = await listResolutions(deps, companyId);
  const votes = await listVotes(deps, companyId);
  const attendance = await listAttendance(deps, companyId);
  const actionItemRows = await listCompanyActionItems(deps, tenant, companyId, {});
  const agendaItems = await listAgendaItems(deps, companyId);

  const paths = new ArchivePaths();
  // The fixed names first: no paper can take them.
  paths.claim(auditExportPath);
  paths.claim(readmePath);
  paths.claim(manifestPath);
  const folders = meetingFolders(meetings);
  const certificates = certificateEntries(deps, paths, { company: companyName, resolutions, filed });
  const entries: ArchiveEntry[] = [
    {
      path: auditExportPath,
      // A trail that cannot be read whole ends the archive unfinished: a finished zip would hold a trail that stops short.
      open: () =>
        textStream(
          exportLines(deps.db, companyId, head, (error) => {
            onAuditCutShort(error);
            throw error;
          }),
        ),
      compress: true,
      mtime: createdAt,
    },
    { path: readmePath, open: () => textStream([readme(companyName, createdAt, head)]), compress: true, mtime: createdAt },
    ...paperEntries(deps, paths, { papers, earlier, paperMeetings, meetingFolders: folders }),
    ...minutesEntries(deps, paths, minutes, folders),
    ...certificates.entries,
    ...recordEntries(
      {
        meetings,
        meetingFolders: new Map([...folders].map(([id, folder]) => [id, `papers/${folder}`])),
        resolutions,
        certificateFolders: certificates.folders,
        votes,
        attendance,
        actionItems: actionItemRows,
        agendaItems,
      },
      createdAt,
    ),
  ];
  return {
    head,
    entries,
    manifestOf: (files) => ({
      companyId,
      companyName,
      createdAt: createdAt.toISOString(),
      auditHeadHash: head.headHash,
      auditCount: head.count,
      files,
    }),
  };
}
