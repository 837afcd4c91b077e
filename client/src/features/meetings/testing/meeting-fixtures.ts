import type { CompanyMember } from "@shared/companies";
import type { DocumentObject } from "@shared/documents";
import type { ListedMeeting, MeetingContentWire } from "@shared/meetings";
import { buildCompanyMember } from "@/testing/factories";

let nextId = 100;

/** A meeting document as GET /api/documents answers it. */
export function buildMeetingDocument(content: Partial<MeetingContentWire> & { id?: number; companyId?: number } = {}): DocumentObject {
  const { id = nextId++, companyId = 1, ...fields } = content;
  const date = fields.date ?? "2026-06-10T14:00:00.000Z";
  const full: MeetingContentWire = {
    type: "meeting",
    title: "Board Meeting",
    date,
    endDate: new Date(new Date(date).getTime() + 2 * 60 * 60 * 1000).toISOString(),
    location: "Virtual (Zoom)",
    status: "pending",
    participants: [],
    agenda: "",
    ...fields,
  };
  const text = JSON.stringify(full);
  return {
    id,
    name: `Meeting: ${full.title}`,
    fileType: "application/json",
    fileSize: text.length,
    content: text,
    category: "Meeting",
    companyId,
    uploadedBy: 1,
    createdAt: "2026-05-01T10:00:00.000Z",
    hasFile: false,
  };
}

export function buildFileDocument(fields: Partial<DocumentObject> = {}): DocumentObject {
  return {
    id: nextId++,
    name: "Budget 2026.pdf",
    fileType: "application/pdf",
    fileSize: 2048,
    content: "The budget",
    category: "Financial",
    companyId: 1,
    uploadedBy: 1,
    createdAt: "2026-05-01T10:00:00.000Z",
    hasFile: true,
    ...fields,
  };
}

export function buildListedMeeting(fields: Partial<ListedMeeting> = {}): ListedMeeting {
  const date = fields.date ?? "2026-06-10T14:00:00.000Z";
  return {
    id: nextId++,
    title: "Board Meeting",
    date,
    endDate: new Date(new Date(date).getTime() + 2 * 60 * 60 * 1000).toISOString(),
    location: "Virtual (Zoom)",
    status: "pending",
    participantCount: 0,
    ...fields,
  };
}

export function buildMember(fields: Partial<CompanyMember> & { id: number }): CompanyMember {
  return buildCompanyMember({
    firstName: "Member",
    lastName: String(fields.id),
    username: `member${fields.id}`,
    email: `member${fields.id}@example.com`,
    ...fields,
  });
}
