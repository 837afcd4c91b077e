import request from "supertest";
import { eq } from "drizzle-orm";
import type { DocumentObject } from "../../../../shared/documents";
import { checkWrittenCertificate } from "../../crypto/written-certificate-check";
import { auditEvents, documents, fileSweep } from "../../db/schema";
import { readPack } from "../../testing/board-pack-fixtures";
import { useTestContext } from "../../testing/test-context";
import { writtenCertificateFixture } from "../../testing/written-certificate-fixtures";
import { certificateFromPdf } from "./written-certificate-pdf";
import { fileWrittenCertificate } from "./written-certificate-file";

// Filing a decided written resolution's certificate in the company's library, read back as the board reads it.

const ctx = useTestContext();
const api = () => request(ctx.app);

describe("fileWrittenCertificate", () => {
  it("files the PDF, its certificate attached, as a Resolution Certificates document of the company", async () => {
    const { founder, company, member } = await ctx.board("Certified Ltd");
    const director = await member("member", { firstName: "Raj", lastName: "Patel" });
    const certificate = writtenCertificateFixture({
      companyId: company.id,
      resolutionId: 77,
      title: "Open a Berlin office",
      directors: [
        { name: "Fay Founder", decision: "agree" },
        { name: "Raj Patel", decision: "agree" },
      ],
    });
    const documentId = await ctx.db.transaction((tx) => fileWrittenCertificate(tx, ctx.deps, certificate, director.id));

    const listed = await api().get("/api/documents").query({ category: "Resolution Certificates" }).set("Authorization", founder.bearer);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      expect.objectContaining({
        id: documentId,
        name: "Certificate of written resolution #77 - Open a Berlin office.pdf",
        category: "Resolution Certificates",
        fileType: "application/pdf",
        companyId: company.id,
        uploadedBy: director.id,
        hasFile: true,
        content: `Passed: all 2 eligible directors agreed. SHA-256 of the text: ${certificate.textSha256}`,
      } satisfies Partial<DocumentObject>),
    ]);

    const download = await api().get(`/api/documents/${documentId}/download`).set("Authorization", founder.bearer).responseType("blob");
    expect(download.status).toBe(200);
    expect(download.headers["content-type"]).toBe("application/pdf");
    const bytes = download.body as Buffer;
    const attached = await certificateFromPdf(new Uint8Array(bytes));
    expect(attached).toEqual(certificate);
    expect(await checkWrittenCertificate(attached)).toMatchObject({ valid: true });
    const { pages } = await readPack(bytes);
    expect(pages[0]!.text).toContain("Certificate of a written resolution of Certified Ltd");

    const [uploaded] = await ctx.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.targetId, String(documentId)));
    expect(uploaded).toMatchObject({ action: "document.uploaded", actorId: director.id, companyId: company.id });
  });

  it("files nothing when the deciding transaction rolls back, and files as Quorum itself without an actor", async () => {
    const { founder, company } = await ctx.board("Rolled Back Ltd");
    const certificate = writtenCertificateFixture({ companyId: company.id, directors: [{ name: "Fay", decision: "disagree" }] });
    const failed = ctx.db.transaction(async (tx) => {
      await fileWrittenCertificate(tx, ctx.deps, certificate, founder.id);
      throw new Error("the decision failed after filing");
    });
    await expect(failed).rejects.toThrow("the decision failed after filing");
    expect(await ctx.db.select().from(documents).where(eq(documents.companyId, company.id))).toEqual([]);
    // Its bytes went with it: nothing is left on the sweep of abandoned files.
    expect(await ctx.db.select().from(fileSweep)).toEqual([]);

    const documentId = await ctx.db.transaction((tx) => fileWrittenCertificate(tx, ctx.deps, certificate, null));
    const shown = await api().get(`/api/documents/${documentId}`).set("Authorization", founder.bearer);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ category: "Resolution Certificates", uploadedBy: null });
    expect(shown.body.content).toMatch(/^Rejected: 1 of 1 eligible director did not agree/);
  });
});
