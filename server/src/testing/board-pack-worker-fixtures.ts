import { boardPacks } from "../db/schema";
import { eq } from "drizzle-orm";
import { packLimits } from "../features/meeting-record/board-pack.limits";
import { pdfWorkLimits } from "../features/meeting-record/pdf-pool";
import { packFixtures, paperPdf } from "./board-pack-fixtures";
import type { SignedUp, TestContext } from "./test-context";

// What the tests of building packs in workers share: papers that test the workers' caps, companies and meetings to
// queue builds for, and waits on what the workers do.

/**
 * A one-page PDF whose page's resources hold an array of `count` numbers: a few megabytes on disk, far more once
 * parsed (each number an object of its own), so a worker with a small heap dies reading it.
 */
export function heavyPdf(count: number): Buffer {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Heavy 4 0 R >> >>",
    `[${"1 ".repeat(count)}]`,
  ];
  let out = "%PDF-1.7\n";
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("");
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

/** Builds for meetings and companies, and the packs stored, bound to a file's test context. */
export function packWorkerFixtures(ctx: TestContext) {
  const { upload, schedule, putAgenda } = packFixtures(ctx);

  /** A company with a meeting whose one item has a small paper, and further members each with a meeting of their own. */
  async function meetings(count: number) {
    const { founder, member } = await ctx.board("Queue Ltd", { firstName: "Fay", lastName: "Founder" });
    const paper = await upload(founder, "Paper.pdf", "application/pdf", await paperPdf("Paper", 1));
    const people: { user: SignedUp; meetingId: number }[] = [];
    for (let n = 0; n < count; n += 1) {
      const user = n === 0 ? founder : await member("member", { firstName: `Member${n}`, lastName: "Board" });
      const meetingId = await schedule(founder, [], `Meeting ${n + 1}`);
      await putAgenda(founder, meetingId, [{ title: "Only item", durationMinutes: 10, documentIds: [paper] }]);
      people.push({ user, meetingId });
    }
    return { founder, people, paper };
  }

  /** Companies of their own, each with one member, a small paper and a meeting with it on its agenda. */
  async function boards(count: number) {
    const people: { user: SignedUp; meetingId: number }[] = [];
    for (let n = 0; n < count; n += 1) {
      const { founder } = await ctx.board(`Board ${n + 1} Ltd`, { firstName: "Fay", lastName: `Founder${n}` });
      const paper = await upload(founder, "Paper.pdf", "application/pdf", await paperPdf("Paper", 1));
      const meetingId = await schedule(founder, []);
      await putAgenda(founder, meetingId, [{ title: "Only item", durationMinutes: 10, documentIds: [paper] }]);
      people.push({ user: founder, meetingId });
    }
    return people;
  }

  const storedPacks = (meetingId: number) => ctx.db.select().from(boardPacks).where(eq(boardPacks.meetingId, meetingId));

  return { meetings, boards, storedPacks };
}

/** Waits for a condition (a new worker loads first: longer than a request). */
export const eventually = (check: () => void) => vi.waitFor(check, { timeout: 20_000, interval: 20 });

/** Sends a request now (supertest sends only once awaited). */
export const send = <T>(request: PromiseLike<T>) => Promise.resolve().then(() => request);

/** Puts spies, the pack's limits and the PDF workers' limits back after each test of the file, whatever it changed. */
export function restoreLimitsAfterEach(): void {
  const defaultLimits = { ...packLimits };
  const defaultWorkLimits = { ...pdfWorkLimits };
  afterEach(() => {
    vi.restoreAllMocks();
    Object.assign(packLimits, defaultLimits);
    Object.assign(pdfWorkLimits, defaultWorkLimits);
  });
}
