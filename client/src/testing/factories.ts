import type { AuthResponse, User } from "@shared/auth";
import type { Company, CompanyMember } from "@shared/companies";
import type { LibraryDocument } from "@shared/documents";

let nextId = 1;

/** A user as GET /api/auth/user answers it; a founder with a company unless told otherwise. */
export function buildUser(overrides: Partial<User> = {}): User {
  const id = overrides.id ?? nextId++;
  return {
    id,
    username: `user${id}`,
    email: `user${id}@example.com`,
    firstName: "Ada",
    lastName: "Lovelace",
    role: "founder",
    isPlatformAdmin: false,
    profileImageUrl: null,
    companyId: 1,
    secondFactor: false,
    emailVerified: true,
    pendingEmail: null,
    ...overrides,
  };
}

export function buildAuthResponse(overrides: Partial<AuthResponse> = {}): AuthResponse {
  return { ...buildUser(overrides), token: overrides.token ?? "token-from-server" };
}

/** A company as its settings answer it: Acme Holdings (id 1), a London tech start-up at seed, with nothing optional filled in. */
export function buildCompany(fields: Partial<Company> = {}): Company {
  return {
    id: 1,
    name: "Acme Holdings",
    industry: "technology",
    location: "London, United Kingdom",
    stage: "seed",
    description: null,
    logoUrl: null,
    website: null,
    employeeCount: null,
    invitationMessage: null,
    requireSecondFactor: false,
    searchLanguage: "english",
    writtenResolutionRule: "unanimous",
    writtenLapseDays: 28,
    writtenAllowWithdrawal: true,
    writtenMeetingDemandPercent: 33,
    readReceipts: true,
    notesRetentionDays: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    ...fields,
  };
}

/** A company member as GET /api/companies/:id/members answers it; a plain member with no name unless told otherwise. */
export function buildCompanyMember(fields: Partial<CompanyMember> = {}): CompanyMember {
  return {
    id: 1,
    firstName: null,
    lastName: null,
    username: "someone",
    email: "someone@example.com",
    role: "member",
    profileImageUrl: null,
    isMultiCompanyMember: false,
    otherCompanies: [],
    ...fields,
  };
}

/** A file in a company's library as its list answers it; a PDF in company 1 unless told otherwise. */
export function buildLibraryDocument(fields: Partial<LibraryDocument> & Pick<LibraryDocument, "id" | "name">): LibraryDocument {
  return {
    fileType: "application/pdf",
    fileSize: 1024,
    content: null,
    category: "General",
    companyId: 1,
    uploadedBy: 1,
    createdAt: "2026-05-20T10:00:00.000Z",
    hasFile: true,
    version: 1,
    replacedAt: null,
    pages: null,
    readingMinutes: null,
    changedSinceRead: false,
    readVersion: null,
    truncated: false,
    uploader: "Fay Founder",
    ...fields,
  };
}
