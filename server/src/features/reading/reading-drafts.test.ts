import { readingFixtures } from "../../testing/reading-fixtures";
import { useTestContext } from "../../testing/test-context";

const ctx = useTestContext();
const { as, board } = readingFixtures(ctx);

describe("reading a draft meeting", () => {
  it("is not found, as every other route on a draft: no title in an export, no pack opened, no receipts", async () => {
    const { founder, ann } = await board("Drafts Ltd");
    const date = "2026-08-01T10:00:00.000Z";
    const draft = await as(founder).post("/api/new-meeting", { title: "Secret takeover", date, endDate: date });
    expect(draft.status).toBe(201);
    const id = draft.body.id as number;
    for (const user of [ann, founder]) {
      for (const path of [`/api/meetings/${id}/notes/export`, `/api/meetings/${id}/reading`, `/api/meetings/${id}/reading/board`]) {
        const answer = await as(user).get(path);
        expect({ path, status: answer.status }).toEqual({ path, status: 404 });
        expect(JSON.stringify([answer.headers, answer.body])).not.toContain("Secret");
      }
      expect((await as(user).post(`/api/meetings/${id}/reading/pack`)).status).toBe(404);
    }
  });
});
