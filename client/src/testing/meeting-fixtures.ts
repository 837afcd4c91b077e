import * as companiesApi from "@shared/api/companies";
import * as documentsApi from "@shared/api/documents";
import type { Endpoint } from "@shared/api/endpoint";
import * as meetingsApi from "@shared/api/meetings";
import * as resolutionsApi from "@shared/api/resolutions";
import type { AgendaItem } from "@shared/agenda";
import type { CompanyMember } from "@shared/companies";
import type { DocumentObject, LibraryDocument } from "@shared/documents";
import type { ListedMeeting, MeetingContentWire, UpcomingMeeting } from "@shared/meetings";
import type { Resolution } from "@shared/resolutions";
import type { CompanyRole } from "@shared/roles";
import { freezeDateAt } from "@/testing/clock";
import { buildCompanyMember, buildUser } from "@/testing/factories";
import { handle, type FakeAnswer, type FakeRequest, type HandleOptions } from "@/testing/handle";
import { server } from "@/testing/server";
import { runInTimeZone } from "@/testing/time-zone";
import { serveMeetingRecord } from "@/testing/record-fixtures";

let nextId = 100;

/** A meeting document as GET /api/documents/:id answers it. */
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
    version: 1,
    replacedAt: null,
    pages: null,
    readingMinutes: null,
    changedSinceRead: false,
    readVersion: null,
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
    version: 1,
    replacedAt: null,
    pages: null,
    readingMinutes: null,
    changedSinceRead: false,
    readVersion: null,
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

/** A meeting as the dashboard's upcoming list answers it. */
export function buildUpcomingMeeting(fields: Partial<UpcomingMeeting> = {}): UpcomingMeeting {
  return { ...buildListedMeeting(fields), papersChanged: false, ...fields };
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

/** An agenda item as GET /api/meetings/:id/agenda answers it. */
export function buildAgendaItem(fields: Partial<AgendaItem> = {}): AgendaItem {
  return {
    id: nextId++,
    title: "Item",
    presenterId: null,
    durationMinutes: 10,
    description: "",
    purpose: "discussion",
    documentIds: [],
    resolutionIds: [],
    startsAt: "2026-06-10T14:00:00.000Z",
    ...fields,
  };
}

/** A library row (GET /api/companies/:id/documents). */
export function buildLibraryDocument(fields: Partial<LibraryDocument> = {}): LibraryDocument {
  return { ...buildFileDocument(), truncated: false, uploader: "Ada Lovelace", ...fields };
}

/** A resolution as the company's list answers it. */
export function buildResolutionRow(fields: Partial<Resolution> = {}): Resolution {
  return {
    id: nextId++,
    title: "Approve the budget",
    description: "",
    procedure: "vote",
    textSha256: null,
    lapsesAt: null,
    type: "Ordinary",
    deadline: "2026-07-01T00:00:00.000Z",
    status: "pending",
    createdAt: "2026-05-01T10:00:00.000Z",
    createdBy: 1,
    decidedAt: null,
    explanation: null,
    documentIds: [],
    voteCounts: { yes: 0, no: 0, abstain: 0 },
    ...fields,
  };
}

/**
 * Serves what /meetings/:id reads: the meeting's document, its agenda, and the company's members, library and
 * resolutions (company 3 unless told).
 */
export function serveMeetingPage({
  meeting,
  items = [],
  members = [],
  library = [],
  resolutions = [],
  companyId = 3,
}: {
  meeting: DocumentObject;
  items?: AgendaItem[];
  members?: CompanyMember[];
  library?: LibraryDocument[];
  resolutions?: Resolution[];
  companyId?: number;
}) {
  const ofMeeting = { params: { id: meeting.id } };
  const ofCompany = { params: { companyId } };
  server.use(
    handle(documentsApi.getDocument, () => meeting, ofMeeting),
    handle(meetingsApi.getAgenda, () => ({ items }), ofMeeting),
    handle(companiesApi.listMembers, () => members, ofCompany),
    handle(documentsApi.listLibrary, () => library, ofCompany),
    handle(resolutionsApi.listResolutions, () => resolutions, ofCompany),
  );
  // A meeting that has started shows its record: nothing recorded yet.
  serveMeetingRecord(meeting.id);
}

/**
 * Answers GET /api/documents from `state.documents` (which a test may change) as the server does: only the
 * category asked for, if any. `state.asked` records the category of each request (null: none).
 */
export function serveDocuments(documents: DocumentObject[] = []) {
  const state = { documents, asked: [] as (string | null)[] };
  server.use(
    handle(documentsApi.listDocuments, ({ query }) => {
      const category = query.category ?? null;
      state.asked.push(category);
      const listed = category === null ? state.documents : state.documents.filter((document) => document.category === category);
      return listed.map((document) => ({ ...document, truncated: false }));
    }),
  );
  return state;
}

/** The company of the meeting page's tests, as serveMeetingPage serves it. */
export const pageCompanyId = 3;

/** "Now" in the meeting page's tests: nine days before their meeting. */
export const pageNow = new Date("2026-06-01T09:00:00.000Z");

/**
 * The meeting page's tests run in New York (four hours behind UTC in June), so times are seen converted,
 * with the date frozen at `pageNow` (timers stay real: the page's requests and waits run as usual).
 */
export function runOnMeetingPageClock(): void {
  runInTimeZone("America/New_York");
  freezeDateAt(pageNow);
}

/** A confirmed meeting that started on 31 May (10:00 in New York), the day before the page's clock: its record is kept. */
export function buildStartedMeeting(id: number): DocumentObject {
  return buildPageMeeting({ id, date: "2026-05-31T14:00:00.000Z", status: "confirmed" });
}

/**
 * The setup of a test file on a started meeting's record: the page's clock, the meeting that started on 31 May
 * (`id`), and `as(role)`, user 7 of the page's company signed in with that role.
 */
export function onStartedMeetingPage(id: number) {
  runOnMeetingPageClock();
  return { as: (role: CompanyRole) => pageUser(7, role), started: buildStartedMeeting(id) };
}

/** A signed-in user of the page's company. */
export function pageUser(id: number, role: CompanyRole) {
  return buildUser({ id, companyId: pageCompanyId, role });
}

/** The meeting the page's tests open: "Q3 Board Meeting", pending, on 10 June 2026 at 14:00 UTC (10:00 in New York). */
export function buildPageMeeting(content: Partial<MeetingContentWire> & { id: number }): DocumentObject {
  return buildMeetingDocument({ companyId: pageCompanyId, title: "Q3 Board Meeting", date: "2026-06-10T14:00:00.000Z", ...content });
}

/** An answer to a request, from the JSON body it carried. */
export type BodyAnswer<E extends Endpoint> = (body: FakeRequest<E>["body"]) => FakeAnswer<E>;

/** Answers `endpoint` with `answer(body)`, and records each JSON body sent, in order. */
export function captureBodies<E extends Endpoint>(
  endpoint: E,
  answer: BodyAnswer<E>,
  options?: HandleOptions<E>,
): FakeRequest<E>["body"][] {
  const bodies: FakeRequest<E>["body"][] = [];
  server.use(
    handle(
      endpoint,
      ({ body }) => {
        bodies.push(body);
        return answer(body);
      },
      options,
    ),
  );
  return bodies;
}
