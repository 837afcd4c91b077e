import { PDFDocument, StandardFonts } from "@cantoo/pdf-lib";
import { getDocument, OPS } from "pdfjs-dist/legacy/build/pdf.mjs";
import request from "supertest";
import { sampleGif, samplePng } from "./sample-files";
import type { SignedUp, TestContext } from "./test-context";

// What the board pack's tests share: papers, a meeting with an agenda, the download, and the pack as a reader sees it.

export const meetingStart = "2026-12-01T10:00:00.000Z";

/** A PDF whose pages say "<label> page 1", "<label> page 2", ... */
export async function paperPdf(label: string, pages: number, lock?: { userPassword: string }): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n += 1) pdf.addPage().drawText(`${label} page ${n}`, { x: 72, y: 700, size: 16, font });
  if (lock) pdf.encrypt({ userPassword: lock.userPassword, ownerPassword: "owner-secret" });
  // An encrypted PDF is taken at upload only without object streams (what they pack could not be checked).
  return Buffer.from(await pdf.save({ useObjectStreams: !lock }));
}

/** The pack as a reader sees it: each page's text, whether it paints an image, and the bookmarks with their pages. */
export async function readPack(bytes: Buffer) {
  const pdf = await getDocument({ data: new Uint8Array(bytes), verbosity: 0, isEvalSupported: false }).promise;
  const pages: { text: string; rightColumn: string[]; hasImage: boolean; footer?: { x: number; y: number; width: number } }[] = [];
  for (let n = 1; n <= pdf.numPages; n += 1) {
    const page = await pdf.getPage(n);
    const items = (await page.getTextContent()).items.flatMap((item) => ("str" in item ? [item] : []));
    const operators = await page.getOperatorList();
    pages.push({
      text: items
        .map((item) => item.str)
        .join(" ")
        .replace(/\s+/g, " "),
      // What is drawn right-aligned near the right margin: the agenda's page numbers.
      rightColumn: items.filter((item) => item.transform[4] > 480 && item.str.trim()).map((item) => item.str),
      hasImage: operators.fnArray.includes(OPS.paintImageXObject),
      footer: items
        .filter((item) => /^Page \d+ of \d+$/.test(item.str))
        .map((item) => ({ x: item.transform[4] as number, y: item.transform[5] as number, width: item.width }))[0],
    });
  }
  const outline = (await pdf.getOutline()) ?? [];
  const bookmarks = await Promise.all(
    outline.map(async (entry) => ({
      title: entry.title,
      page: (await pdf.getPageIndex((entry.dest as [{ num: number; gen: number }])[0])) + 1,
    })),
  );
  await pdf.destroy();
  return { pages, bookmarks };
}

export interface ItemInput {
  id?: number;
  title: string;
  durationMinutes: number;
  presenterId?: number | null;
  description?: string;
  documentIds?: number[];
  purpose?: "decision" | "discussion" | "noting";
}

/** The requests the board pack tests make, bound to a file's test context. */
export function packFixtures(ctx: TestContext) {
  const api = () => request(ctx.app);

  /** Uploads a file to the caller's active company; answers its document id. */
  async function upload(user: SignedUp, name: string, type: string, bytes: Buffer): Promise<number> {
    const response = await api()
      .post("/api/documents")
      .set("Authorization", user.bearer)
      .send({ name, category: "Financial", content: `data:${type};base64,${bytes.toString("base64")}` });
    if (response.status !== 201) throw new Error(`upload of ${name} failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.id as number;
  }

  async function schedule(user: SignedUp, participants: number[], title = "Q4 Board Meeting"): Promise<number> {
    const content = {
      type: "meeting",
      title,
      date: meetingStart,
      endDate: new Date(new Date(meetingStart).getTime() + 2 * 60 * 60 * 1000).toISOString(),
      location: "Head office, London",
      status: "confirmed",
      participants: participants.map(String),
    };
    const response = await api()
      .post("/api/documents")
      .set("Authorization", user.bearer)
      .send({ category: "Meeting", content: JSON.stringify(content) });
    if (response.status !== 201) throw new Error(`scheduling failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.id as number;
  }

  async function putAgenda(user: SignedUp, meetingId: number, items: ItemInput[]) {
    const response = await api().put(`/api/meetings/${meetingId}/agenda`).set("Authorization", user.bearer).send({ items });
    if (response.status !== 200) throw new Error(`agenda failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.items as { id: number }[];
  }

  const download = (user: SignedUp, meetingId: number, etag?: string) => {
    const call = api().get(`/api/meetings/${meetingId}/board-pack.pdf`).set("Authorization", user.bearer);
    return (etag ? call.set("If-None-Match", etag) : call).responseType("blob");
  };

  /** A company with a presenter and an observer, a meeting they attend, and papers of every kind. */
  async function setup() {
    const { founder, company, member } = await ctx.board("Zenith Holdings", { firstName: "Fay", lastName: "Founder" });
    const ann = await member("member", { firstName: "Ann", lastName: "Presenter" });
    const obi = await member("observer", { firstName: "Obi", lastName: "Observer" });
    const meetingId = await schedule(founder, [ann.id, obi.id]);
    const papers = {
      a: await upload(founder, "Paper A.pdf", "application/pdf", await paperPdf("Paper A", 3)),
      notes: await upload(founder, "notes.txt", "text/plain", Buffer.from("Plain notes\n")),
      gif: await upload(founder, "animation.gif", "image/gif", sampleGif()),
      b: await upload(founder, "Paper B.pdf", "application/pdf", await paperPdf("Paper B", 2)),
      chart: await upload(founder, "chart.png", "image/png", samplePng()),
      broken: await upload(
        founder,
        "broken.pdf",
        "application/pdf",
        Buffer.from("%PDF-1.7\n<< garbage >> stream \x01\x02\n%%EOF\n", "latin1"),
      ),
      locked: await upload(founder, "locked.pdf", "application/pdf", await paperPdf("Locked", 2, { userPassword: "s3cret" })),
      restricted: await upload(founder, "restricted.pdf", "application/pdf", await paperPdf("Restricted", 1, { userPassword: "" })),
    };
    const items = await putAgenda(founder, meetingId, [
      {
        title: "Zoë — 会議 ✓",
        durationMinutes: 15,
        presenterId: ann.id,
        description: "Opening remarks.\nApproval of the minutes.",
        documentIds: [papers.a, papers.notes, papers.gif],
      },
      {
        title: "Finance",
        durationMinutes: 30,
        documentIds: [papers.b, papers.chart, papers.broken, papers.locked, papers.restricted],
      },
      { title: "Any other business", durationMinutes: 10 },
    ]);
    return { founder, company, ann, obi, meetingId, papers, items };
  }

  return { api, upload, schedule, putAgenda, download, setup };
}
