import { listenOn, openEventStream } from "../../testing/event-stream-client";
import { uploadPdf } from "../../testing/factories";
import { readingFixtures } from "../../testing/reading-fixtures";
import { useTestContext } from "../../testing/test-context";

const ctx = useTestContext();
const { as, board } = readingFixtures(ctx);

describe("a note's words", () => {
  it("reach no audit record, no live event and no log line", async () => {
    const { founder, ann, company, papers } = await board("Quiet Ltd");
    const listening = await listenOn(ctx.app);
    const streams = [await openEventStream(listening.url, ann.bearer), await openEventStream(listening.url, founder.bearer)];
    try {
      const words = "Whispered-note-words-7781";
      const quote = "Highlighted-quote-words-5531";
      const created = await as(ann).post(`/api/documents/${papers.budget}/notes`, { version: 1, page: 1, quote, text: words });
      expect(created.status).toBe(201);
      const changed = await as(ann).patch(`/api/notes/${created.body.id}`, { text: `${words} again` });
      expect(changed.status).toBe(200);
      await as(ann).get(`/api/documents/${papers.budget}/notes`);
      // A change both streams hear after the notes: anything the notes sent would have come before it.
      const later = await uploadPdf(ctx.app, founder, "Later.pdf");
      for (const stream of streams) {
        await stream.next((event) => event.event === "document" && JSON.stringify(event.data).includes(String(later)));
        expect(stream.status).toBe(200);
        const heard = JSON.stringify(stream.events);
        expect(heard).not.toContain("Whispered");
        expect(heard).not.toContain("Highlighted");
      }
      const exported = await as(founder)
        .get(`/api/companies/${company.id}/audit/export`)
        .buffer(true)
        .parse((response, done) => {
          let text = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => (text += chunk));
          response.on("end", () => done(null, text));
        });
      expect(exported.status).toBe(200);
      expect(exported.body as string).toContain("document.");
      expect(exported.body as string).not.toContain("Whispered");
      expect(exported.body as string).not.toContain("Highlighted");
      expect(ctx.logs.join("\n")).not.toContain("Whispered");
      expect(ctx.logs.join("\n")).not.toContain("Highlighted");
    } finally {
      for (const stream of streams) stream.close();
      await listening.close();
    }
  });
});
