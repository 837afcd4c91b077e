import { eq } from "drizzle-orm";
import request from "supertest";
import type { CompanyRole } from "../../../shared/roles";
import type { Database } from "../db/client";
import { companies, memberships, users } from "../db/schema";
import { samplePdf } from "./sample-files";

/** Test data written straight to the database, for tests whose subject is not company creation itself. */
export async function createCompany(db: Database, fields: { name?: string; founderId?: number; activate?: boolean } = {}) {
  const [company] = await db
    .insert(companies)
    .values({ name: fields.name ?? "Acme Holdings", industry: "Technology", location: "London, United Kingdom", stage: "seed" })
    .returning();
  if (!company) throw new Error("company insert failed");
  if (fields.founderId != null) await addMember(db, company.id, fields.founderId, "founder", fields.activate ?? true);
  return company;
}

/** Adds a membership; with `activate`, also makes the company the user's active one. */
export async function addMember(db: Database, companyId: number, userId: number, role: CompanyRole, activate = true) {
  await db.insert(memberships).values({ companyId, userId, role });
  if (activate) await db.update(users).set({ activeCompanyId: companyId }).where(eq(users.id, userId));
}

/** The JSON `content` of a meeting document as the client sends it: two hours from `start`, no participants unless given. */
export function meetingContent(start: Date, overrides: Record<string, unknown> = {}) {
  return {
    type: "meeting",
    title: "Q3 Board Meeting",
    date: start.toISOString(),
    endDate: new Date(start.getTime() + 2 * 60 * 60 * 1000).toISOString(),
    location: "Virtual (Zoom)",
    status: "pending",
    participants: [] as string[],
    ...overrides,
  };
}

/** What a scheduled meeting may set beyond its start; anything else is meetingContent's default. */
export interface ScheduledMeetingFields {
  title?: string;
  location?: string;
  status?: string;
  participants?: number[];
  agenda?: string;
}

/**
 * Schedules a meeting through `POST /api/documents` as `user` (in their active company), telling nobody, and
 * answers its id; a refusal throws with the answer, so a test never goes on without its meeting.
 */
export async function scheduleMeeting(
  app: Parameters<typeof request>[0],
  user: { bearer: string },
  start: Date,
  fields: ScheduledMeetingFields = {},
): Promise<number> {
  const { participants = [], ...others } = fields;
  // A field given as undefined keeps its default.
  const overrides = Object.fromEntries(Object.entries(others).filter(([, value]) => value !== undefined));
  const content = meetingContent(start, { ...overrides, participants: participants.map(String) });
  const response = await request(app)
    .post("/api/documents")
    .set("Authorization", user.bearer)
    .send({ category: "Meeting", content: JSON.stringify(content) });
  if (response.status !== 201) throw new Error(`scheduling failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.id as number;
}

/** Uploads a small PDF as the user into their active company's library; answers its id. */
export async function uploadPdf(
  app: Parameters<typeof request>[0],
  user: { bearer: string },
  name = "Budget.pdf",
  category = "Financial",
): Promise<number> {
  const response = await request(app)
    .post("/api/documents")
    .set("Authorization", user.bearer)
    .send({ name, category, fileType: "application/pdf", content: `data:application/pdf;base64,${samplePdf().toString("base64")}` });
  if (response.status !== 201) throw new Error(`upload failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.id as number;
}
