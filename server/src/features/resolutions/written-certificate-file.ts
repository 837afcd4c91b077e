// Filing a decided written resolution's certificate: its PDF (the JSON attached inside) becomes a library document of
// the company, category "Resolution Certificates", in the transaction that decides the resolution.
import { Readable } from "node:stream";
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { resolutionCertificatesCategory } from "../../../../shared/meeting-model";
import { displayName } from "../../../../shared/people";
import type { WrittenCertificate } from "../../../../shared/written-resolutions";
import type { ServiceDeps } from "../../app-deps";
import type { Transaction } from "../../db/client";
import { startSweep } from "../../clock";
import { companies, resolutions, users } from "../../db/schema";
import { insertDocument, receiveFile } from "../documents/documents.service";
import { renderWrittenCertificatePdf } from "./written-certificate-pdf";

export type CertificateFileDeps = ServiceDeps<"db" | "clock" | "appSecret" | "outbound">;

/** The library document's name: the resolution's number and title. */
export const certificateDocumentName = (certificate: Pick<WrittenCertificate, "resolutionId" | "title">) =>
  `Certificate of written resolution #${certificate.resolutionId} - ${certificate.title}.pdf`;

/**
 * Inside the caller's transaction (the decision's, under the resolution's row lock): renders the certificate's PDF,
 * stores its bytes and files it as a document of the resolution's company, uploaded by `actorId` (null: Quorum
 * itself, as at a lapse). The bytes are written through the same transaction, so a rollback leaves none behind in
 * the database; in object storage they are left to the store. Answers the document's id.
 */
export async function fileWrittenCertificate(
  tx: Transaction,
  deps: CertificateFileDeps,
  certificate: WrittenCertificate,
  actorId: number | null,
): Promise<number> {
  const [company] = await tx.select({ name: companies.name }).from(companies).where(eq(companies.id, certificate.companyId));
  if (!company) throw new Error(`no company ${certificate.companyId} to file the certificate of resolution ${certificate.resolutionId} in`);
  const pdf = await renderWrittenCertificatePdf(certificate, { company: company.name });
  const received = await receiveFile({ ...deps, db: tx }, Readable.from([Buffer.from(pdf)]), "pdf", "application/pdf");
  const file = received.result("pdf");
  let actor: { id: number; name: string } | null = null;
  if (actorId !== null) {
    const [user] = await tx
      .select({ firstName: users.firstName, lastName: users.lastName, username: users.username })
      .from(users)
      .where(eq(users.id, actorId));
    actor = { id: actorId, name: user ? displayName(user) : "" };
  }
  return insertDocument(
    tx,
    deps.clock,
    { companyId: certificate.companyId, actor },
    {
      name: certificateDocumentName(certificate),
      category: resolutionCertificatesCategory,
      description: `${certificate.explanation}. SHA-256 of the text: ${certificate.textSha256}`,
      fileType: file.fileType,
      fileSize: file.size,
      pages: file.pages,
    },
    { ...received.place, sha256: file.sha256 },
  );
}

/**
 * Files the certificates of decided written resolutions not yet filed: of one resolution (after the request that may
 * have decided it has committed) or of all (the sweep). Each in its own transaction, which claims the resolution by
 * setting `writtenCertificateFiledAt` first: two callers racing file it once (the second waits on the row and finds it
 * claimed). Answers how many were filed.
 */
export async function fileDecidedCertificates(deps: CertificateFileDeps, scope: { resolutionId: number } | "all"): Promise<number> {
  const due = await deps.db
    .select({ id: resolutions.id })
    .from(resolutions)
    .where(
      and(
        isNotNull(resolutions.writtenCertificate),
        isNull(resolutions.writtenCertificateFiledAt),
        scope === "all" ? undefined : eq(resolutions.id, scope.resolutionId),
      ),
    );
  let filed = 0;
  for (const { id } of due) {
    const done = await deps.db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(resolutions)
        .set({ writtenCertificateFiledAt: deps.clock.now() })
        .where(and(eq(resolutions.id, id), isNull(resolutions.writtenCertificateFiledAt)))
        .returning({ certificate: resolutions.writtenCertificate });
      if (!claimed?.certificate) return false;
      await fileWrittenCertificate(tx, deps, claimed.certificate, null);
      return true;
    });
    if (done) filed += 1;
  }
  return filed;
}

/** Files any certificate a request did not (a lapse decided by the resolution sweep, a failed render), every `intervalMs`. */
export function startCertificateSweep(deps: CertificateFileDeps & ServiceDeps<"logger">, intervalMs = 60_000): { stop: () => void } {
  return startSweep(deps.logger, intervalMs, () => fileDecidedCertificates(deps, "all"), {
    handled: "written resolution certificates filed",
    failed: "certificate sweep failed",
  });
}
