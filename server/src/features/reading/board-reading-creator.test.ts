import { and, eq } from "drizzle-orm";
import { memberships } from "../../db/schema";
import { readingFixtures } from "../../testing/reading-fixtures";
import { useTestContext } from "../../testing/test-context";
import { boardReadingDeniedMessage } from "./reading-progress.service";

const ctx = useTestContext();
const { as, board } = readingFixtures(ctx);

describe("GET /api/meetings/:id/reading/board", () => {
  it("is no longer the meeting's creator's once they are an observer, as the meeting's record is not", async () => {
    const { ann, company, meetingId } = await board("Demoted Ltd");
    expect((await as(ann).get(`/api/meetings/${meetingId}/reading/board`)).status).toBe(200);
    await ctx.changeUserDirectly(ann.id, () =>
      ctx.db
        .update(memberships)
        .set({ role: "observer" })
        .where(and(eq(memberships.userId, ann.id), eq(memberships.companyId, company.id))),
    );
    const refused = await as(ann).get(`/api/meetings/${meetingId}/reading/board`);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: boardReadingDeniedMessage });
  });
});
