import { readFileSync } from "node:fs";
import { boardWithMembers, uniqueName } from "./set-up";
import { checkScreen, expectAccessible, screenshot, useBrowser, viewports } from "./support";

const browser = useBrowser();

/** A one-page PDF padded to `size` bytes, so the upload takes long enough to show its progress. */
function pdf(size: number): Buffer {
  const head = Buffer.from(
    "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n" +
      "3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n",
    "latin1",
  );
  const end = Buffer.from("%%EOF\n", "latin1");
  return Buffer.concat([head, Buffer.alloc(size - head.length - end.length, 0x20), end]);
}
/** A 1×1 PNG. */
const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC", "base64");

describe("documents in the browser", () => {
  for (const [label, viewport] of viewports) {
    it(`uploads a PDF and a PNG with progress, lists, previews, downloads and deletes them (${label} px)`, async () => {
      const board = await boardWithMembers();
      const page = await browser.signedInPage(board.founder, { viewport, awaitWelcome: true });
      const pdfName = uniqueName("Board pack ");
      const pngName = uniqueName("Company logo ");
      const pdfBytes = pdf(3 * 1024 * 1024);

      // The dashboard says there is nothing yet; its 'Upload document' opens the dialog on /documents.
      await page.getByText("No documents uploaded yet.").waitFor();
      await page.getByRole("link", { name: "Upload document" }).click();
      let dialog = page.getByRole("dialog", { name: "Upload Document" });
      await dialog.waitFor();
      expect(new URL(page.url()).pathname).toBe("/documents");

      await dialog.getByLabel("Title").fill(pdfName);
      await dialog.getByLabel("File").setInputFiles({ name: "board-pack.pdf", mimeType: "application/pdf", buffer: pdfBytes });
      await expectAccessible(page);
      await screenshot(page, `documents-${label}-upload-dialog`);
      const progress = dialog.getByRole("progressbar", { name: "Upload progress" }).waitFor({ timeout: 10_000 });
      await dialog.getByRole("button", { name: "Upload" }).click();
      await progress;
      await page.getByText("Document uploaded").first().waitFor({ timeout: 90_000 });
      await dialog.waitFor({ state: "detached" });

      await page.getByRole("button", { name: "Upload Document" }).click();
      dialog = page.getByRole("dialog", { name: "Upload Document" });
      await dialog.getByLabel("Title").fill(pngName);
      await dialog.getByLabel("File").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: png });
      await dialog.getByRole("button", { name: "Upload" }).click();
      await dialog.waitFor({ state: "detached", timeout: 90_000 });

      // Both in the list, then in the grid.
      const documents = page.getByRole("list", { name: "Documents" });
      await documents.getByText(pdfName).waitFor();
      await documents.getByText(pngName).waitFor();
      await documents.getByText("3.0 MB").waitFor();
      await documents
        .getByText(/Uploaded by Morgan Chair • /)
        .first()
        .waitFor();
      await checkScreen(page, `documents-${label}-list`);
      await page.getByRole("button", { name: "Grid view" }).click();
      expect(await page.getByRole("button", { name: "Grid view" }).getAttribute("aria-pressed")).toBe("true");
      await documents.getByText(pdfName).waitFor();
      await documents.getByText(pngName).waitFor();
      await checkScreen(page, `documents-${label}-grid`);

      // Previews: the PDF in a frame, the image as an image, both from the inline download.
      await page.getByRole("button", { name: `Preview ${pdfName}` }).click();
      let preview = page.getByRole("dialog", { name: pdfName });
      const frame = preview.locator("iframe");
      await frame.waitFor();
      expect(await frame.getAttribute("src")).toMatch(/^\/api\/documents\/\d+\/download\?inline=1$/);
      await preview.getByRole("link", { name: "Download" }).waitFor();
      await screenshot(page, `documents-${label}-preview-pdf`);
      // The PDF frame may hold the keyboard focus (Escape goes to it): the dialog's own Close button.
      await preview.getByRole("button", { name: "Close" }).click();
      await preview.waitFor({ state: "detached" });

      // A browser without a PDF viewer (as navigator.pdfViewerEnabled says) gets a file card instead of a
      // blank frame: Download, and Open in new tab for the system's own viewer.
      await page.evaluate(() => Object.defineProperty(navigator, "pdfViewerEnabled", { value: false, configurable: true }));
      await page.getByRole("button", { name: `Preview ${pdfName}` }).click();
      preview = page.getByRole("dialog", { name: pdfName });
      await preview.getByText("This browser cannot show PDFs here: download it or open it in a new tab.").waitFor();
      expect(await preview.locator("iframe").count()).toBe(0);
      const openInTab = preview.getByRole("link", { name: "Open in new tab" });
      expect(await openInTab.getAttribute("href")).toMatch(/^\/api\/documents\/\d+\/download\?inline=1$/);
      expect(await openInTab.getAttribute("target")).toBe("_blank");
      expect(await preview.getByRole("link", { name: "Download" }).isVisible()).toBe(true);
      await expectAccessible(page);
      await screenshot(page, `documents-${label}-preview-pdf-fallback`);
      await page.keyboard.press("Escape");
      await preview.waitFor({ state: "detached" });
      await page.evaluate(() => Object.defineProperty(navigator, "pdfViewerEnabled", { value: true, configurable: true }));

      await page.getByRole("button", { name: `Preview ${pngName}` }).click();
      preview = page.getByRole("dialog", { name: pngName });
      const image = preview.getByRole("img", { name: pngName });
      await image.waitFor();
      await page.waitForFunction((name) => {
        const element = [...document.querySelectorAll("img")].find((img) => img.alt === name);
        return element != null && element.complete && element.naturalWidth === 1;
      }, pngName);
      await expectAccessible(page);
      await screenshot(page, `documents-${label}-preview-png`);

      // Download from the preview: the same bytes come back.
      const [download] = await Promise.all([page.waitForEvent("download"), preview.getByRole("link", { name: "Download" }).click()]);
      expect(download.suggestedFilename()).toBe(`${pngName}.png`);
      expect(Buffer.compare(readFileSync(await download.path()), png)).toBe(0);
      await page.keyboard.press("Escape");
      await preview.waitFor({ state: "detached" });

      // The list's download of the PDF serves it byte for byte too (the session cookie, as a new tab would).
      const href = await page.getByRole("link", { name: `Download ${pdfName}` }).getAttribute("href");
      const served = await page.evaluate(async (url) => {
        const bytes = new Uint8Array(await (await fetch(url!)).arrayBuffer());
        const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
        return { length: bytes.length, digest: Array.from(digest) };
      }, href);
      const { createHash } = await import("node:crypto");
      expect(served.length).toBe(pdfBytes.length);
      expect(Buffer.from(served.digest).toString("hex")).toBe(createHash("sha256").update(pdfBytes).digest("hex"));

      // Delete the image, after the confirmation.
      await page.getByRole("button", { name: `Delete ${pngName}` }).click();
      const confirm = page.getByRole("alertdialog", { name: "Delete document?" });
      // The confirmation's code loads on the first press: checked once it is there (and has settled).
      await confirm.waitFor();
      await expectAccessible(page);
      await confirm.getByRole("button", { name: "Delete" }).click();
      await page.getByText("Document deleted").first().waitFor();
      await documents.getByText(pngName).waitFor({ state: "detached" });
      await documents.getByText(pdfName).waitFor();

      // The dashboard's Recent Documents.
      await page.goto("/");
      await page.getByText(pdfName).waitFor();
      await page.getByText("3.0 MB").waitFor();
      expect(await page.getByText(pngName).count()).toBe(0);
      await checkScreen(page, `documents-${label}-dashboard`);
    });
  }
});
