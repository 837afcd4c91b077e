import request from "supertest";
import { documents, platformServices, resolutions } from "../db/schema";
import { encryptSecret } from "../integrations/secrets";
import { meetingContent } from "./factories";
import type { SignedUp, TestContext } from "./test-context";

const day = 24 * 60 * 60 * 1000;

/** Where the stored "OpenAI" platform service points the client (any OpenAI-compatible server), and its key. */
export const aiBase = "https://ai.test/v1";
export const storedAiKey = "sk-stored-0123456789abcdef";

/** What the agenda generation tests share: the request, and a company with a meeting to draft an agenda for. */
export function agendaFixtures(ctx: Pick<TestContext, "app" | "clock" | "board" | "db" | "deps">) {
  const api = () => request(ctx.app);
  const generateAgenda = (user: SignedUp, meetingId: number, app = ctx.app) =>
    request(app).post(`/api/meetings/${meetingId}/generate-agenda`).set("Authorization", user.bearer);

  /** A company with pending resolutions, a recent file and a meeting to draft an agenda for. */
  async function boardWithMeeting() {
    const { founder, company } = await ctx.board("Orbital Widgets", { firstName: "Fay", lastName: "Founder" });
    const now = ctx.clock.now().getTime();
    await ctx.db.insert(resolutions).values([
      {
        companyId: company.id,
        title: "Approve the 2026 budget",
        description: "Budget",
        type: "Ordinary",
        deadline: new Date(now + 7 * day),
        createdBy: founder.id,
      },
      {
        companyId: company.id,
        title: "Appoint Jane Doe as CFO",
        description: "Hire",
        type: "Special",
        deadline: new Date(now + 9 * day),
        createdBy: founder.id,
      },
      {
        companyId: company.id,
        title: "Long expired motion",
        description: "Old",
        type: "Ordinary",
        deadline: new Date(now - day),
        createdBy: founder.id,
      },
      {
        companyId: company.id,
        title: "Already approved motion",
        description: "Done",
        type: "Ordinary",
        status: "approved",
        deadline: new Date(now + day),
        createdBy: founder.id,
      },
    ]);
    await ctx.db.insert(documents).values({
      companyId: company.id,
      name: "Q2 management accounts.pdf",
      fileType: "application/pdf",
      fileSize: 1024,
      category: "Financial",
      uploadedBy: founder.id,
    });
    const previous = await scheduleMeeting(founder, "Spring Board Meeting", new Date(now - 30 * day));
    const meeting = await scheduleMeeting(founder, "Summer Board Meeting", new Date(now + 14 * day));
    return { founder, company, meetingId: meeting, previousId: previous };
  }

  async function scheduleMeeting(user: SignedUp, title: string, start: Date): Promise<number> {
    const content = meetingContent(start, { title, location: "Board room" });
    const response = await api()
      .post("/api/documents")
      .set("Authorization", user.bearer)
      .send({ category: "Meeting", content: JSON.stringify(content) });
    if (response.status !== 201) throw new Error(`schedule failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.id;
  }

  /** The stored "OpenAI" service, on and at `aiBase` unless told otherwise; `keySecret` encrypts its key under another APP_SECRET than the app's. */
  async function storeAiService(fields: { isEnabled?: boolean; url?: string | null; keySecret?: string } = {}) {
    await ctx.db.insert(platformServices).values({
      serviceName: "OpenAI",
      serviceKeyEncrypted: encryptSecret(storedAiKey, fields.keySecret ?? ctx.deps.appSecret),
      serviceKeyPreview: storedAiKey.slice(0, 8),
      serviceUrl: fields.url === undefined ? aiBase : fields.url,
      isEnabled: fields.isEnabled ?? true,
    });
  }

  return { api, generateAgenda, boardWithMeeting, storeAiService };
}
