import { packFixtures } from "../../testing/board-pack-fixtures";
import { PDFDocument } from "@cantoo/pdf-lib";
import { blankPagesPdf, indirectFilterPdf, inflationBombPdf, manyPagesPdf, sharedTreePdf } from "../../testing/hostile-pdfs";
import { useTestContext } from "../../testing/test-context";
import { encryptedMessage, expandsTooFarMessage, indirectFilterMessage, pdfLimits, tooManyPagesMessage } from "./pdf-bounds";
import { uploadFixtures } from "../../testing/upload-fixtures";

const ctx = useTestContext();
const { api, board, jsonUpload, streamedUpload, stored } = uploadFixtures(ctx);
const pack = packFixtures(ctx);

const mebibyte = 1024 * 1024;
const expandsTooFar = expandsTooFarMessage(512 * mebibyte);
const tooManyPages = tooManyPagesMessage(2000);

/** A multipart body built beforehand, so that what the client holds is allocated before memory is measured. */
function multipartBody(fileName: string, bytes: Buffer) {
  const boundary = "----quorum-hostile-pdf";
  const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head =
    field("name", fileName) +
    field("category", "Legal") +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/pdf\r\n\r\n`;
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.concat([Buffer.from(head, "latin1"), bytes, Buffer.from(`\r\n--${boundary}--\r\n`, "latin1")]),
  };
}

/**
 * Runs `work` while sampling the process's memory (the server runs in it); answers its result and the largest growth
 * seen, by resident size and by what V8 holds (its heap and the buffers outside it).
 */
async function sampledGrowth<T>(work: () => Promise<T>): Promise<{ result: T; rss: number; held: number }> {
  const heldNow = () => {
    const { heapUsed, external } = process.memoryUsage();
    return heapUsed + external;
  };
  const start = { rss: process.memoryUsage.rss(), held: heldNow() };
  const peak = { ...start };
  const sample = () => {
    peak.rss = Math.max(peak.rss, process.memoryUsage.rss());
    peak.held = Math.max(peak.held, heldNow());
  };
  // Often enough to see 150 MB come and go; reading V8's figures costs, so not much more often.
  const sampler = setInterval(sample, 10);
  try {
    const result = await work();
    sample();
    return { result, rss: peak.rss - start.rss, held: peak.held - start.held };
  } finally {
    clearInterval(sampler);
  }
}

describe("hostile PDFs at upload", () => {
  it("refuses a 20 MiB PDF that inflates to 2 GiB, quickly and in little memory, by either form of upload", async () => {
    const { founder, company } = await board();
    const bomb = await inflationBombPdf();
    expect(bomb.length).toBeGreaterThan(19 * mebibyte);
    const upload = multipartBody("Bomb.pdf", bomb);
    // A first upload warms the path (compilation, the database's first writes), which the bound is not about; and a
    // paper that expands, but less than the limit, is taken.
    const expands = await inflationBombPdf({ expandsTo: 64 * mebibyte, size: 256 * 1024 });
    expect((await streamedUpload(founder, "Expands.pdf", expands)).status).toBe(201);
    const before = await stored(company.id);

    const started = performance.now();
    const {
      result: streamed,
      rss,
      held,
    } = await sampledGrowth(() =>
      api().post("/api/documents").set("Authorization", founder.bearer).set("Content-Type", upload.type).send(upload.body),
    );
    const elapsed = performance.now() - started;
    expect(streamed.status, JSON.stringify(streamed.body)).toBe(400);
    expect(streamed.body).toEqual({ message: expandsTooFar });
    expect(elapsed).toBeLessThan(2000);
    expect(rss / mebibyte).toBeLessThan(150);
    expect(held / mebibyte).toBeLessThan(150);

    const asJson = await jsonUpload(founder, "Bomb.pdf", bomb);
    expect(asJson.status).toBe(400);
    expect(asJson.body).toEqual({ message: expandsTooFar });
    expect(await stored(company.id)).toEqual(before);
  });

  it("refuses 100,000 pages, plain or in object streams, and keeps nothing", async () => {
    const { founder, company } = await board();
    const before = await stored(company.id);
    const plain = await streamedUpload(founder, "Pages.pdf", manyPagesPdf());
    expect(plain.status).toBe(400);
    expect(plain.body).toEqual({ message: tooManyPages });
    const hidden = await jsonUpload(founder, "Pages.pdf", manyPagesPdf({ layout: "objectStreams" }));
    expect(hidden.status).toBe(400);
    expect(hidden.body).toEqual({ message: tooManyPages });
    // The type named only after the bytes (the name comes last): the bytes say PDF, so they are checked all the same.
    const unnamed = await api()
      .post("/api/documents")
      .set("Authorization", founder.bearer)
      .send({ content: `data:;base64,${manyPagesPdf({ layout: "sharedPage" }).toString("base64")}`, name: "Pages.pdf", category: "Legal" });
    expect(unnamed.status).toBe(400);
    expect(unnamed.body).toEqual({ message: tooManyPages });
    expect(await stored(company.id)).toEqual(before);
  });

  it("refuses shared page-tree nodes, filters named by reference and encrypted files, by either form, keeping nothing", async () => {
    const { founder, company } = await board();
    const locked = await PDFDocument.create();
    locked.addPage([300, 300]);
    locked.encrypt({ userPassword: "", ownerPassword: "owner-secret" });
    const cases = [
      { name: "Shared.pdf", bytes: sharedTreePdf({ levels: 3, fanOut: 50, packed: true }), message: tooManyPages },
      { name: "Indirect.pdf", bytes: await indirectFilterPdf({ pages: 5000 }), message: indirectFilterMessage },
      { name: "Locked.pdf", bytes: Buffer.from(await locked.save()), message: encryptedMessage },
    ];
    const before = await stored(company.id);
    for (const { name, bytes, message } of cases) {
      for (const send of [streamedUpload, jsonUpload]) {
        const refused = await send(founder, name, bytes);
        expect(refused.status, `${name} ${send.name}`).toBe(400);
        expect(refused.body, `${name} ${send.name}`).toEqual({ message });
      }
    }
    expect(await stored(company.id)).toEqual(before);
  });

  it("refuses one page past a lowered limit by either form, and accepts the limit itself", async () => {
    const { founder, company } = await board();
    const saved = { ...pdfLimits };
    pdfLimits.pages = 3;
    try {
      const four = await blankPagesPdf(4);
      const before = await stored(company.id);
      for (const send of [streamedUpload, jsonUpload]) {
        const refused = await send(founder, "Four.pdf", four);
        expect(refused.status, send.name).toBe(400);
        expect(refused.body, send.name).toEqual({ message: tooManyPagesMessage(3) });
      }
      expect(await stored(company.id)).toEqual(before);
      expect((await streamedUpload(founder, "Three.pdf", await blankPagesPdf(3))).status).toBe(201);
    } finally {
      Object.assign(pdfLimits, saved);
    }
  });

  it("accepts an honest 2,000-page PDF, and its meeting's board pack builds", { timeout: 60_000 }, async () => {
    const { founder } = await board();
    const paper = await blankPagesPdf(2000);
    const uploaded = await streamedUpload(founder, "Thick report.pdf", paper);
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const meetingId = await pack.schedule(founder, []);
    await pack.putAgenda(founder, meetingId, [{ title: "The report", durationMinutes: 30, documentIds: [uploaded.body.id as number] }]);
    const built = await pack.download(founder, meetingId);
    expect(built.status).toBe(200);
    expect(built.headers["content-type"]).toMatch(/^application\/pdf/);
  });
});
