import { concatTransformationMatrix, PDFDocument, StandardFonts } from "@cantoo/pdf-lib";
import { eq } from "drizzle-orm";
import { getDocument, OPS } from "pdfjs-dist/legacy/build/pdf.mjs";
import request from "supertest";
import { companies, documentFiles, documents } from "../../db/schema";
import { sampleGif, samplePng } from "../../testing/sample-files";
import { useTestContext, type SignedUp } from "../../testing/test-context";

const ctx = useTestContext();
const api = () => request(ctx.app);
const meetingStart = "2026-12-01T10:00:00.000Z";

/** A PDF whose pages say "<label> page 1", "<label> page 2", ... */
async function paperPdf(label: string, pages: number, lock?: { userPassword: string }): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n += 1) pdf.addPage().drawText(`${label} page ${n}`, { x: 72, y: 700, size: 16, font });
  if (lock) pdf.encrypt({ userPassword: lock.userPassword, ownerPassword: "owner-secret" });
  return Buffer.from(await pdf.save());
}

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

interface ItemInput {
  id?: number;
  title: string;
  durationMinutes: number;
  presenterId?: number | null;
  description?: string;
  documentIds?: number[];
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

/** The pack as a reader sees it: each page's text, whether it paints an image, and the bookmarks with their pages. */
async function readPack(bytes: Buffer) {
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

describe("GET /api/meetings/:id/board-pack.pdf", () => {
  it("is the cover, the agenda with each item's page, then each item's section and papers, with one bookmark per item", async () => {
    const { founder, company, meetingId } = await setup();
    await ctx.db
      .update(companies)
      .set({ logoUrl: `data:image/png;base64,${samplePng().toString("base64")}` })
      .where(eq(companies.id, company.id));

    const response = await download(founder, meetingId);
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("application/pdf");
    expect(response.headers["content-disposition"]).toContain('attachment; filename="Q4 Board Meeting.pdf"');
    expect(response.headers["cache-control"]).toBe("private, no-cache");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers.etag).toMatch(/^"bp-[\w-]+"$/);

    const { pages, bookmarks } = await readPack(response.body as Buffer);
    // Cover, agenda, item 1 (its section and Paper A's 3 pages), item 2 (section, Paper B's 2 pages, the image,
    // restricted.pdf's page), item 3 (its section).
    expect(pages).toHaveLength(1 + 1 + (1 + 3) + (1 + 2 + 1 + 1) + 1);
    const sectionPages = [3, 7, 12];

    const cover = pages[0]!;
    expect(cover.hasImage).toBe(true);
    for (const text of [
      "Zenith Holdings",
      "BOARD PACK",
      "Q4 Board Meeting",
      "Tuesday, 1 December 2026, 10:00–12:00 UTC",
      "Head office, London",
    ]) {
      expect(cover.text).toContain(text);
    }
    expect(cover.text).toContain("Ann Presenter");
    expect(cover.text).toContain("Obi Observer");

    const agenda = pages[1]!;
    expect(agenda.text).toContain("Agenda");
    expect(agenda.text).toContain("Zoë — ?? ?");
    expect(agenda.text).toContain("10:00–10:15 UTC · 15 min");
    expect(agenda.text).toContain("10:15–10:45 UTC · 30 min");
    expect(agenda.text).toContain("Presented by Ann Presenter");
    expect(agenda.text).toContain("Papers: Paper A.pdf, notes.txt, animation.gif");
    expect(agenda.rightColumn).toEqual(sectionPages.map(String));

    expect(bookmarks).toEqual([
      { title: "Zoë — 会議 ✓", page: 3 },
      { title: "Finance", page: 7 },
      { title: "Any other business", page: 12 },
    ]);
    sectionPages.forEach((page, index) => expect(pages[page - 1]!.text).toContain(`ITEM ${index + 1} OF 3`));

    const first = pages[2]!.text;
    expect(first).toContain("Presented by Ann Presenter");
    expect(first).toContain("Approval of the minutes.");
    expect(first).toMatch(/Paper A\.pdf .*3 pages: pages 4–6/);
    expect(first).toMatch(/notes\.txt .*attachment not merged — download from the library/);
    expect(first).toMatch(/animation\.gif .*attachment not merged — download from the library/);
    [1, 2, 3].forEach((n) => expect(pages[2 + n]!.text).toContain(`Paper A page ${n}`));

    const second = pages[6]!.text;
    expect(second).toMatch(/broken\.pdf .*could not be included: the file is encrypted or damaged/);
    expect(second).toMatch(/locked\.pdf .*could not be included: the file is password-protected/);
    expect(second).toMatch(/Paper B\.pdf .*2 pages: pages 8–9/);
    expect(second).toMatch(/chart\.png .*image: page 10/);
    expect(second).toMatch(/restricted\.pdf .*1 page: page 11/);
    expect(pages[7]!.text).toContain("Paper B page 1");
    expect(pages[8]!.text).toContain("Paper B page 2");
    expect(pages[9]!.hasImage).toBe(true);
    expect(pages[9]!.text).toContain("chart.png");
    // Encrypted only against editing (an empty user password): merged like any other paper.
    expect(pages[10]!.text).toContain("Restricted page 1");
    expect(pages.map((page) => page.text).join("\n")).not.toMatch(/Locked page/);

    expect(pages[11]!.text).toContain("No papers for this item.");
    pages.forEach((page, index) => expect(page.text).toContain(`Page ${index + 1} of ${pages.length}`));
  });

  it("answers 304 to its ETag without building the pack, and a new tag when the agenda or a paper changes", async () => {
    const { founder, meetingId, papers, items } = await setup();
    const first = await download(founder, meetingId);
    const etag = first.headers.etag!;
    const again = await download(founder, meetingId);
    expect(again.headers.etag).toBe(etag);
    // A strong tag: the same agenda and papers give the very same bytes.
    expect(Buffer.compare(again.body as Buffer, first.body as Buffer)).toBe(0);

    const cached = await download(founder, meetingId, etag);
    expect(cached.status).toBe(304);
    expect(cached.body).toHaveLength(0);
    expect(cached.headers.etag).toBe(etag);

    await putAgenda(founder, meetingId, [
      { id: items[1]!.id, title: "Finance", durationMinutes: 30, documentIds: [papers.b] },
      { id: items[0]!.id, title: "Zoë — 会議 ✓", durationMinutes: 15, documentIds: [papers.a] },
    ]);
    const reordered = await download(founder, meetingId, etag);
    expect(reordered.status).toBe(200);
    const reorderedTag = reordered.headers.etag!;
    expect(reorderedTag).not.toBe(etag);
    expect((await readPack(reordered.body as Buffer)).bookmarks.map((entry) => entry.title)).toEqual(["Finance", "Zoë — 会議 ✓"]);

    await ctx.db.update(documents).set({ name: "Paper B (revised).pdf" }).where(eq(documents.id, papers.b));
    const renamed = await download(founder, meetingId, reorderedTag);
    expect(renamed.status).toBe(200);
    expect(renamed.headers.etag).not.toBe(reorderedTag);
    expect((await readPack(renamed.body as Buffer)).pages[2]!.text).toContain("Paper B (revised).pdf");
  });

  it("costs the same number of queries to revalidate whatever the length of the agenda", async () => {
    const { founder, meetingId, papers } = await setup();
    const cost = async (items: ItemInput[]) => {
      await putAgenda(founder, meetingId, items);
      const etag = (await download(founder, meetingId)).headers.etag!;
      return ctx.countQueries(async () => expect((await download(founder, meetingId, etag)).status).toBe(304));
    };
    const item = (n: number): ItemInput => ({ title: `Item ${n}`, durationMinutes: 5, documentIds: [papers.notes, papers.a] });
    const one = await cost([item(1)]);
    const many = await cost(Array.from({ length: 12 }, (_, n) => item(n + 1)));
    expect(many).toBe(one);
  });

  it("is read by every member, observers too; another company's meeting, a draft and an unknown id are 404", async () => {
    const { founder, obi, meetingId } = await setup();
    const observed = await download(obi, meetingId);
    expect(observed.status).toBe(200);
    expect((await readPack(observed.body as Buffer)).pages).toHaveLength(12);

    const stranger = (await ctx.board("Elsewhere Ltd")).founder;
    expect((await download(stranger, meetingId)).status).toBe(404);
    const draft = await api()
      .post("/api/new-meeting")
      .set("Authorization", founder.bearer)
      .send({ title: "Draft", date: new Date(ctx.clock.now().getTime() + 86_400_000).toISOString() });
    expect(draft.status).toBe(201);
    expect((await download(founder, draft.body.id as number)).status).toBe(404);
    expect((await download(founder, 999_999)).status).toBe(404);
  });

  it("is a cover and an agenda page without bookmarks for a meeting with no items, named after its title", async () => {
    const { founder } = await ctx.board("Quiet Co", { firstName: "Fay", lastName: "Founder" });
    const meetingId = await schedule(founder, [], "Strategy — 2027 / Q1");
    const response = await download(founder, meetingId);
    expect(response.status).toBe(200);
    expect(response.headers["content-disposition"]).toBe(
      `attachment; filename="Strategy _ 2027 / Q1.pdf"; filename*=UTF-8''Strategy%20%E2%80%94%202027%20%2F%20Q1.pdf`,
    );
    const { pages, bookmarks } = await readPack(response.body as Buffer);
    expect(pages).toHaveLength(2);
    expect(pages[0]!.text).toContain("No participants listed");
    expect(pages[1]!.text).toContain("This meeting has no agenda items yet.");
    expect(bookmarks).toEqual([]);
  });

  it("spreads a long agenda and a long section over pages, and every page number it prints stays right", async () => {
    const { founder, company } = await ctx.board("Longform Ltd", { firstName: "Fay", lastName: "Founder" });
    const meetingId = await schedule(founder, [], "Annual general meeting");
    // Files stored whole in their row (as before chunked storage), written directly: many papers, quickly.
    const notes = await ctx.db
      .insert(documents)
      .values(
        Array.from({ length: 44 }, (_, n) => ({
          companyId: company.id,
          name: `Report ${n + 1}.txt`,
          fileType: "text/plain",
          fileSize: 6,
          category: "Other",
        })),
      )
      .returning({ id: documents.id });
    await ctx.db.insert(documentFiles).values(notes.map(({ id }) => ({ documentId: id, bytes: Buffer.from("report") })));
    // A paper whose content leaves a transformation in force: the footer drawn after it must not be moved.
    const scaledPdf = await PDFDocument.create();
    const font = await scaledPdf.embedFont(StandardFonts.Helvetica);
    const scaledPage = scaledPdf.addPage();
    scaledPage.pushOperators(concatTransformationMatrix(0.5, 0, 0, 0.5, 0, 0));
    scaledPage.drawText("Scaled page 1", { x: 144, y: 1400, size: 32, font });
    const scaled = await upload(founder, "scaled.pdf", "application/pdf", Buffer.from(await scaledPdf.save()));
    const description = Array.from({ length: 150 }, (_, n) => `word${n}`).join(" ");
    await putAgenda(founder, meetingId, [
      { title: "Reports", durationMinutes: 60, description, documentIds: [...notes.map(({ id }) => id), scaled] },
      ...Array.from({ length: 29 }, (_, n) => ({
        title: `Item ${n + 2}: a title long enough to wrap onto a second line of the agenda, as the titles of real items sometimes do`,
        durationMinutes: 5,
      })),
    ]);

    const { pages, bookmarks } = await readPack((await download(founder, meetingId)).body as Buffer);
    expect(bookmarks).toHaveLength(30);
    const agendaPages = pages.slice(1, bookmarks[0]!.page - 1);
    expect(agendaPages.length).toBeGreaterThan(1);
    expect(agendaPages.flatMap((page) => page.rightColumn)).toEqual(bookmarks.map((entry) => String(entry.page)));
    bookmarks.forEach((entry, index) => expect(pages[entry.page - 1]!.text).toContain(`ITEM ${index + 1} OF 30`));

    const scaledAt = pages.findIndex((page) => page.text.includes("Scaled page 1")) + 1;
    expect(scaledAt - bookmarks[0]!.page).toBeGreaterThan(1);
    const section = pages.slice(bookmarks[0]!.page - 1, scaledAt - 1).map((page) => page.text);
    expect(section.join(" ")).toContain(`scaled.pdf 1 page: page ${scaledAt}`);
    expect(section.join(" ")).toContain("Report 44.txt attachment not merged");

    const footer = pages[scaledAt - 1]!.footer!;
    expect(footer.y).toBeCloseTo(20, 0);
    expect(footer.x + footer.width / 2).toBeCloseTo(595.28 / 2, 0);
  });
});
