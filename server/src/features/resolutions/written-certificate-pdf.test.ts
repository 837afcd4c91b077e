import { PDFDocument } from "@cantoo/pdf-lib";
import { readPack } from "../../testing/board-pack-fixtures";
import { checkWrittenCertificate } from "../../crypto/written-certificate-check";
import { writtenCertificateFixture } from "../../testing/written-certificate-fixtures";
import { certificateFromPdf, renderWrittenCertificatePdf } from "./written-certificate-pdf";

describe("a written resolution's certificate as a PDF", () => {
  const certificate = writtenCertificateFixture({
    directors: [
      { name: "Jane Doe", decision: "agree" },
      { name: "Zoë Ångström", decision: "agree", method: "password" },
    ],
    recused: ["Tom Ford"],
    text: `# Budget\n\n${"RESOLVED, that the Company adopts the budget. ".repeat(120)}\n\nKanji 会社 and €.`,
  });

  it("carries the certificate's JSON as an attachment that reads back whole and checks", async () => {
    const bytes = await renderWrittenCertificatePdf(certificate, { company: "Acme Ltd" });
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getTitle()).toBe("Written resolution #41: Adopt the FY27 budget");
    expect(pdf.getPageCount()).toBeGreaterThanOrEqual(2);
    expect(pdf.getAttachments().map((attachment) => [attachment.name, attachment.mimeType])).toEqual([
      ["certificate.json", "application/json"],
    ]);
    const read = await certificateFromPdf(bytes);
    expect(read).toEqual(certificate);
    expect(await checkWrittenCertificate(read)).toMatchObject({ valid: true });
    // The same certificate gives the same bytes.
    expect(Buffer.from(await renderWrittenCertificatePdf(certificate, { company: "Acme Ltd" })).equals(Buffer.from(bytes))).toBe(true);
  });

  it("shows the title, the text and its hash, the rule, the eligible and recused, each signature and the outcome", async () => {
    const { pages } = await readPack(Buffer.from(await renderWrittenCertificatePdf(certificate, { company: "Acme Ltd" })));
    const text = pages.map((page) => page.text).join(" ");
    const [jane, zoe] = certificate.signatures;
    for (const shown of [
      "Written resolution #41: Adopt the FY27 budget",
      "Certificate of a written resolution of Acme Ltd",
      "Passed: all 2 eligible directors agreed",
      "RESOLVED, that the Company adopts the budget.",
      // Helvetica writes what it can: the JSON attached keeps the exact text.
      "Kanji ?? and €.",
      `SHA-256 of the text (its UTF-8 bytes): ${certificate.textSha256}`,
      "every eligible director must agree; lapses after 28 days",
      "Eligible directors (2): Jane Doe, Zoë Ångström",
      "Recused: Tom Ford",
      "Jane Doe: I agree",
      `Passkey credential: ${jane!.credentialId}`,
      "Zoë Ångström: I agree Signed 1 Jun 2026, 11:00 UTC (2026-06-01T11:00:00.000Z) by password Signed statement",
      `effective 1 Jun 2026, 11:00 UTC (${zoe!.signedAt})`,
    ]) {
      expect(text).toContain(shown);
    }
    expect(pages.at(-1)?.text).toMatch(/Page (\d+) of \1/);
  });

  it("refuses a PDF without the attachment", async () => {
    const plain = await (await PDFDocument.create()).save();
    await expect(certificateFromPdf(plain)).rejects.toThrow("the PDF has no certificate.json attached");
  });
});
