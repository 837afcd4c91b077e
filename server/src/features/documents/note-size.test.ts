import request from "supertest";
import { maxNoteLength, noteTooLongMessage, previewLength } from "../../../../shared/documents";
import { meetingContent } from "../../testing/factories";
import { useTestContext, type SignedUp } from "../../testing/test-context";
import { uploadFixtures } from "../../testing/upload-fixtures";

// A note holds at most 100,000 characters, and lists carry only its first 300: fifty notes of the largest size
// cost every list a few tens of kilobytes, not megabytes.
const ctx = useTestContext();
const { stored } = uploadFixtures(ctx);
const api = () => request(ctx.app);

/** Text of exactly `length` characters, not all of them ASCII (each "é" is two bytes on the wire). */
const noteText = (length: number, seed = "") =>
  `${seed}Minutes of the board – résumé, décisions et actions. `.repeat(length).slice(0, length);

const writeNote = (user: SignedUp, name: string, content: string) =>
  api().post("/api/documents").set("Authorization", user.bearer).send({ name, category: "General", content });

describe("notes", () => {
  it("hold at most 100,000 characters: one more is refused with the field's error, and nothing is stored", async () => {
    const { founder, company } = await ctx.board();
    const largest = await writeNote(founder, "Largest", noteText(maxNoteLength));
    expect(largest.status).toBe(201);
    expect(largest.body.content).toHaveLength(maxNoteLength);

    const before = await stored(company.id);
    const tooLong = await writeNote(founder, "Too long", noteText(maxNoteLength + 1));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({ errors: [{ path: "content", message: noteTooLongMessage }] });
    expect(typeof tooLong.body.message).toBe("string");
    expect((await stored(company.id)).documents).toBe(before.documents);

    // Text of 28 MB is refused once it passes what any text member may hold, without reading the rest into memory.
    const huge = await writeNote(founder, "Huge", "x".repeat(28 * 1000 * 1000));
    expect(huge.status).toBe(413);
    expect(huge.body).toEqual({ message: "A field of the request is too large" });
    expect((await stored(company.id)).documents).toBe(before.documents);
  });

  it("fifty of the largest: the document list, the library and the recent list each answer under 100 KB, cut in the query", async () => {
    const { founder, company } = await ctx.board();
    const texts: string[] = [];
    for (let n = 0; n < 50; n += 1) {
      ctx.clock.advance(1_000);
      texts.push(noteText(maxNoteLength, `Note ${n}. `));
      const created = await writeNote(founder, `${"Board paper ".repeat(30)}${n}`.slice(-300), texts[n]!);
      expect(created.status).toBe(201);
    }
    // A meeting's JSON is never cut: the meetings page reads it from the list.
    const meeting = await api()
      .post("/api/documents")
      .set("Authorization", founder.bearer)
      .send({ category: "Meeting", content: JSON.stringify(meetingContent(new Date("2026-07-01T10:00:00Z"))) });
    expect(meeting.status).toBe(201);

    // The database cuts the text: the list query itself never reads a note whole.
    let cutInQuery = 0;
    const cuts = () => ctx.whenQuery(new RegExp(`left\\("documents"\\."description", ${previewLength}\\)`), () => (cutInQuery += 1));
    const read = async (path: string) => {
      const response = await api().get(path).set("Authorization", founder.bearer);
      expect(response.status).toBe(200);
      expect(Buffer.byteLength(response.text)).toBeLessThan(100 * 1024);
      return response.body as { id: number; content?: string | null; truncated?: boolean; category?: string }[];
    };
    cuts();
    const everything = await read("/api/documents");
    cuts();
    const library = await read(`/api/companies/${company.id}/documents`);
    expect(cutInQuery).toBe(2);
    const recent = await read(`/api/companies/${company.id}/documents/recent`);
    expect(recent).toHaveLength(5);

    expect(library).toHaveLength(50);
    expect(everything).toHaveLength(51);
    for (const rows of [everything, library]) {
      const notes = rows.filter((row) => row.category !== "Meeting");
      // Newest first: the last note written leads.
      expect(notes[0]).toMatchObject({ content: texts[49]!.slice(0, previewLength), truncated: true });
      for (const row of notes) expect(row.content!.length).toBeLessThanOrEqual(previewLength);
    }
    const listedMeeting = everything.find((row) => row.category === "Meeting")!;
    expect(listedMeeting.truncated).toBe(false);
    expect(JSON.parse(listedMeeting.content!)).toMatchObject({ title: expect.any(String) });

    // The whole text is one document's read.
    const one = await api().get(`/api/documents/${library[0]!.id}`).set("Authorization", founder.bearer);
    expect(one.status).toBe(200);
    expect(one.body.content).toBe(texts[49]);
    expect(one.body).not.toHaveProperty("truncated");
  }, 60_000);

  it("a note of 300 characters or fewer comes whole in the lists and is not marked cut", async () => {
    const { founder, company } = await ctx.board();
    expect((await writeNote(founder, "Short", "Just words")).status).toBe(201);
    expect((await writeNote(founder, "Exactly", noteText(previewLength))).status).toBe(201);
    const library = await api().get(`/api/companies/${company.id}/documents`).set("Authorization", founder.bearer);
    expect(library.body).toMatchObject([
      { name: "Exactly", content: noteText(previewLength), truncated: false },
      { name: "Short", content: "Just words", truncated: false },
    ]);
  });
});
