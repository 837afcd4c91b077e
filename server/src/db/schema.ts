import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  customType,
  date,
  index,
  integer,
  type AnyPgColumn,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { actionItemStatuses, agendaPurposes, attendanceStatuses, meetingStatuses } from "../../../shared/meeting-model";
import { versionTextStatuses } from "../../../shared/paper-versions";
import { searchLanguages } from "../../../shared/search";
import type { Certificate } from "../../../shared/resolutions";
import {
  resolutionProcedures,
  signDecisions,
  signatureMethods,
  writtenRuleKinds,
  type WrittenCertificate,
  type WrittenRule,
} from "../../../shared/written-resolutions";
import { companyRoles } from "../../../shared/roles";

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * A row's words for full-text search, in its company's language: kept by the database (a trigger on every write,
 * migration 0019), never written by the app. Read only by the search. The bodies' vectors are stored in their row
 * (STORAGE MAIN, which drizzle cannot say: the migration does), and their GIN indexes have no pending list.
 */
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });
const searchVector = () => tsvector("search_vector");

export const fileStorageKinds = ["database", "s3"] as const;

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
/** A row's owner: required, and deleting the owner deletes the row. */
const belongsTo = (name: string, owner: () => AnyPgColumn) => integer(name).notNull().references(owner, { onDelete: "cascade" });

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    username: text("username").notNull(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    firstName: text("first_name"),
    lastName: text("last_name"),
    profileImageUrl: text("profile_image_url"),
    isPlatformAdmin: boolean("is_platform_admin").notNull().default(false),
    activeCompanyId: integer("active_company_id").references(() => companies.id, { onDelete: "set null" }),
    /** Part of what the calendar feed secrets are derived from: bumping it revokes every feed URL the user was given. */
    calendarFeedVersion: integer("calendar_feed_version").notNull().default(0),
    /**
     * Whether the user has a second factor (a confirmed authenticator app or a passkey): kept beside the user
     * so the session query answers it with no join; set in the same transaction as the factor's own row.
     */
    secondFactor: boolean("second_factor").notNull().default(false),
    /**
     * Whether the holder proved the address by following a link sent to it (or an invitation's). An unverified
     * address grants and reserves nothing; when another account verifies it, this one's `email` becomes "" (none).
     */
    emailVerified: boolean("email_verified").notNull().default(false),
    /** A new address asked for and not yet proved: the account keeps `email` until its link is followed. */
    pendingEmail: text("pending_email"),
    /**
     * False for an account made by "Add Member" whose holder has not yet chosen a password: it cannot sign in
     * (its stored hash is empty) until they follow their invitation's link.
     */
    passwordSet: boolean("password_set").notNull().default(true),
    /** The second step of sign-in is refused until then, after too many wrong codes. */
    secondFactorLockedUntil: timestamp("second_factor_locked_until", { withTimezone: true }),
    /** How many times the second step has been locked: each lock lasts twice the one before. */
    secondFactorLocks: integer("second_factor_locks").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("users_username_lower_idx").on(sql`lower(${t.username})`),
    // Only a proved address is reserved: any number of unverified accounts may name it until one proves it.
    uniqueIndex("users_verified_email_lower_idx")
      .on(sql`lower(${t.email})`)
      .where(sql`${t.emailVerified} and ${t.email} <> ''`),
    index("users_email_lower_idx").on(sql`lower(${t.email})`),
    index("users_active_company_idx").on(t.activeCompanyId),
  ],
);

/** Opaque bearer tokens: only the SHA-256 of the token is stored. */
export const sessions = pgTable(
  "sessions",
  {
    id: serial("id").primaryKey(),
    tokenHash: text("token_hash").notNull(),
    userId: belongsTo("user_id", () => users.id),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** The browser's User-Agent at sign-in (at most 512 characters), so a user can tell their sessions apart. */
    userAgent: text("user_agent"),
    /** When this session last passed a second factor (sign-in with one, or a passkey): service keys need it within 12 hours. */
    secondFactorAt: timestamp("second_factor_at", { withTimezone: true }),
    /** When this session last re-proved its holder (password, and the second factor where there is one): security changes need it within 10 minutes. */
    reauthAt: timestamp("reauth_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("sessions_token_hash_idx").on(t.tokenHash), index("sessions_user_idx").on(t.userId)],
);

/** Failed sign-in attempts, counted per username and per IP for the rate limit (kept in the database so every instance shares them). */
export const loginAttempts = pgTable(
  "login_attempts",
  {
    id: serial("id").primaryKey(),
    username: text("username").notNull(),
    ip: text("ip").notNull(),
    attemptedAt: timestamp("attempted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("login_attempts_username_idx").on(t.username, t.attemptedAt), index("login_attempts_ip_idx").on(t.ip, t.attemptedAt)],
);

export const companies = pgTable("companies", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  industry: text("industry"),
  location: text("location"),
  stage: text("stage"),
  description: text("description"),
  logoUrl: text("logo_url"),
  website: text("website"),
  employeeCount: text("employee_count"),
  invitationMessage: text("invitation_message"),
  /** Votes (abstentions included) a resolution needs by its deadline, as a percent of the eligible voters; null: more than half. */
  quorumPercent: integer("quorum_percent"),
  /** Members without a second factor are sent to set one up before they see anything of this company. */
  requireSecondFactor: boolean("require_second_factor").notNull().default(false),
  /** The board's rule for written resolutions: unanimity, or a majority with a share that may ask for a meeting. */
  writtenResolutionRule: text("written_resolution_rule", { enum: writtenRuleKinds }).notNull().default("unanimous"),
  writtenLapseDays: integer("written_lapse_days").notNull().default(28),
  writtenAllowWithdrawal: boolean("written_allow_withdrawal").notNull().default(true),
  writtenMeetingDemandPercent: integer("written_meeting_demand_percent").notNull().default(33),
  /** The secretary sees which directors have opened the pack and each paper (opened or not, never pages or time). */
  readReceipts: boolean("read_receipts").notNull().default(true),
  /** Null: directors' notes are kept; otherwise deleted this many days after a meeting's minutes are approved. */
  notesRetentionDays: integer("notes_retention_days"),
  /** The Postgres text search configuration its record is indexed and searched in. */
  searchLanguage: text("search_language", { enum: searchLanguages }).notNull().default("english"),
  createdAt: createdAt(),
});

export const memberships = pgTable(
  "memberships",
  {
    userId: belongsTo("user_id", () => users.id),
    companyId: belongsTo("company_id", () => companies.id),
    role: text("role", { enum: companyRoles }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.companyId] }), index("memberships_company_idx").on(t.companyId)],
);

export const invitationStatuses = ["pending", "accepted", "declined", "revoked"] as const;
export type InvitationStatus = (typeof invitationStatuses)[number];

/**
 * An invitation to join a company, answered only by the holder of its address: by one of its two links (single-use
 * tokens, of which only the SHA-256 is kept) or, once signed in with that address verified, from the dashboard. It is
 * kept after it is answered; an invitation past `expires_at` and still pending is expired.
 */
export const invitations = pgTable(
  "invitations",
  {
    id: serial("id").primaryKey(),
    companyId: belongsTo("company_id", () => companies.id),
    email: text("email").notNull(),
    role: text("role", { enum: companyRoles }).notNull(),
    invitedBy: integer("invited_by").references(() => users.id, { onDelete: "set null" }),
    /** The mailed link: joins and proves the address. Null for an invitation made before links (a resend gives it one). */
    tokenHash: text("token_hash"),
    /** The link shown once to the inviter, to pass on: joins, but proves no address (the inviter holds it too). */
    sharedTokenHash: text("shared_token_hash"),
    status: text("status", { enum: invitationStatuses }).notNull().default("pending"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    respondedAt: timestamp("responded_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("invitations_pending_company_email_idx")
      .on(t.companyId, sql`lower(${t.email})`)
      .where(sql`${t.status} = 'pending'`),
    uniqueIndex("invitations_token_idx").on(t.tokenHash),
    index("invitations_email_idx").on(sql`lower(${t.email})`),
    uniqueIndex("invitations_shared_token_idx").on(t.sharedTokenHash),
  ],
);

export const accountTokenPurposes = ["verify-email", "password-reset"] as const;
export type AccountTokenPurpose = (typeof accountTokenPurposes)[number];

/**
 * Single-use links sent to an address: a verification (24 hours; `email` is the address it proves) or a password
 * reset (30 minutes). Only the token's SHA-256 is kept; a used one keeps `used_at`, so a second use is told apart
 * from a forged one.
 */
export const accountTokens = pgTable(
  "account_tokens",
  {
    id: serial("id").primaryKey(),
    userId: belongsTo("user_id", () => users.id),
    purpose: text("purpose", { enum: accountTokenPurposes }).notNull(),
    tokenHash: text("token_hash").notNull(),
    email: text("email").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("account_tokens_token_idx").on(t.tokenHash), index("account_tokens_user_idx").on(t.userId, t.purpose)],
);

/** Wrong second-step codes (and failed passkey second steps) of an account, counted over an hour for its lock. */
export const secondFactorFailures = pgTable(
  "second_factor_failures",
  {
    id: serial("id").primaryKey(),
    userId: belongsTo("user_id", () => users.id),
    failedAt: timestamp("failed_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("second_factor_failures_user_idx").on(t.userId, t.failedAt)],
);

/**
 * Events counted by a limit other than sign-in's (password resets per address and per IP, mails per address):
 * `bucket` names the limit, `key` what it counts for. Kept in the database so every instance shares them.
 */
export const rateEvents = pgTable(
  "rate_events",
  {
    id: serial("id").primaryKey(),
    bucket: text("bucket").notNull(),
    key: text("key").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull(),
  },
  (t) => [index("rate_events_bucket_key_idx").on(t.bucket, t.key, t.at)],
);

export const documents = pgTable(
  "documents",
  {
    id: serial("id").primaryKey(),
    companyId: belongsTo("company_id", () => companies.id),
    name: text("name").notNull(),
    fileType: text("file_type").notNull(),
    fileSize: bigint("file_size", { mode: "number" }).notNull().default(0),
    category: text("category").notNull(),
    description: text("description"),
    uploadedBy: integer("uploaded_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    /** The latest version's number (1 until the file is first replaced), when it replaced the one before, its pages (PDFs). */
    version: integer("version").notNull().default(1),
    replacedAt: timestamp("replaced_at", { withTimezone: true }),
    pages: integer("pages"),
    searchVector: searchVector(),
  },
  (t) => [
    index("documents_company_created_idx").on(t.companyId, t.createdAt),
    index("documents_uploaded_by_idx").on(t.uploadedBy),
    index("documents_search_idx").using("gin", t.searchVector).with({ fastupdate: false }),
  ],
);

/** File bytes live apart from the metadata so lists never read them. */
export const documentFiles = pgTable("document_files", {
  documentId: integer("document_id")
    .primaryKey()
    .references(() => documents.id, { onDelete: "cascade" }),
  /** Whole-file bytes of rows written before files were stored in chunks; null otherwise. */
  bytes: bytea("bytes"),
  /** Where the bytes are: `file_chunks` rows under `storage_key`, or an object `storage_key` in an S3 bucket. */
  storage: text("storage", { enum: fileStorageKinds }).notNull().default("database"),
  /** For S3: the endpoint and bucket the object was written to ("https://host/bucket"), so a later change of storage never strands it. */
  location: text("location"),
  storageKey: text("storage_key"),
  /** Hex SHA-256 of the bytes (the download's ETag). */
  sha256: text("sha256"),
});

/**
 * Every version of a file document, none ever modified; `document_files` holds the latest one's bytes too. `bytes`:
 * an old version's whole-file bytes when it was stored that way. `textStatus`: whether its text is taken out yet.
 */
export const documentVersions = pgTable(
  "document_versions",
  {
    documentId: belongsTo("document_id", () => documents.id),
    version: integer("version").notNull(),
    fileType: text("file_type").notNull(),
    fileSize: bigint("file_size", { mode: "number" }).notNull(),
    pages: integer("pages"),
    /** Why it replaced the one before; null for the first version. */
    note: text("note"),
    uploadedBy: integer("uploaded_by").references(() => users.id, { onDelete: "set null" }),
    uploadedAt: timestamp("uploaded_at", { withTimezone: true }).notNull(),
    storage: text("storage", { enum: fileStorageKinds }).notNull().default("database"),
    location: text("location"),
    storageKey: text("storage_key"),
    bytes: bytea("bytes"),
    sha256: text("sha256"),
    textStatus: text("text_status", { enum: versionTextStatuses }).notNull().default("pending"),
    textAttempts: integer("text_attempts").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.documentId, t.version] }),
    index("document_versions_unsearched_idx")
      .on(t.documentId)
      .where(sql`${t.textStatus} <> 'done'`),
  ],
);

/** A version's text, page by page (a Word or text file is one page). */
export const documentPageTexts = pgTable(
  "document_page_texts",
  {
    documentId: integer("document_id").notNull(),
    version: integer("version").notNull(),
    page: integer("page").notNull(),
    text: text("text").notNull(),
    searchVector: searchVector(),
  },
  (t) => [
    primaryKey({ columns: [t.documentId, t.version, t.page] }),
    index("document_page_texts_search_idx").using("gin", t.searchVector).with({ fastupdate: false }),
  ],
);

/** What changed between two versions of a document, computed once per pair. */
export const documentComparisons = pgTable(
  "document_comparisons",
  {
    documentId: belongsTo("document_id", () => documents.id),
    fromVersion: integer("from_version").notNull(),
    toVersion: integer("to_version").notNull(),
    result: jsonb("result").notNull(),
    computedAt: timestamp("computed_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.fromVersion, t.toVersion] })],
);

/** The pages of each version a member has opened. */
export const documentPageReads = pgTable(
  "document_page_reads",
  {
    userId: belongsTo("user_id", () => users.id),
    documentId: integer("document_id").notNull(),
    version: integer("version").notNull(),
    page: integer("page").notNull(),
    firstAt: timestamp("first_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.documentId, t.version, t.page] }), index("document_page_reads_document_idx").on(t.documentId)],
);

/** A director's private note on a paper's page; `sealed` is its text and quote, encrypted for its author alone. */
export const paperNotes = pgTable(
  "paper_notes",
  {
    id: serial("id").primaryKey(),
    userId: belongsTo("user_id", () => users.id),
    companyId: belongsTo("company_id", () => companies.id),
    documentId: belongsTo("document_id", () => documents.id),
    version: integer("version").notNull(),
    page: integer("page").notNull(),
    unplaced: boolean("unplaced").notNull().default(false),
    sealed: text("sealed").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("paper_notes_user_document_idx").on(t.userId, t.documentId), index("paper_notes_document_idx").on(t.documentId)],
);

/** A file stored in the database, in slices of at most 1 MiB, so neither writing nor reading it holds the whole file. */
export const fileChunks = pgTable(
  "file_chunks",
  {
    storageKey: text("storage_key").notNull(),
    seq: integer("seq").notNull(),
    bytes: bytea("bytes").notNull(),
  },
  (t) => [primaryKey({ columns: [t.storageKey, t.seq] })],
);

/**
 * Stored bytes that no document may own: an upload in progress (due an hour after it began, and removed
 * from here when its document is committed) or the file of a deleted document held in object storage
 * (due at once). The sweep removes the bytes of every due row.
 */
export const fileSweep = pgTable(
  "file_sweep",
  {
    id: serial("id").primaryKey(),
    storage: text("storage", { enum: fileStorageKinds }).notNull(),
    location: text("location"),
    storageKey: text("storage_key").notNull(),
    dueAt: timestamp("due_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("file_sweep_due_idx").on(t.dueAt), index("file_sweep_key_idx").on(t.storageKey)],
);

export const meetings = pgTable(
  "meetings",
  {
    documentId: integer("document_id")
      .primaryKey()
      .references(() => documents.id, { onDelete: "cascade" }),
    companyId: belongsTo("company_id", () => companies.id),
    title: text("title").notNull(),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    location: text("location").notNull(),
    status: text("status", { enum: meetingStatuses }).notNull(),
    agenda: text("agenda"),
    /** How many times it was confirmed, moved or cancelled: the calendar event's SEQUENCE. */
    sequence: integer("sequence").notNull().default(0),
    /** Who chaired it (recorded with the attendance); null until then. */
    chairId: integer("chair_id").references(() => users.id, { onDelete: "set null" }),
    /** When the chair closed it (recorded with the attendance); null until then. */
    closedAt: timestamp("closed_at", { withTimezone: true }),
    /** When its board pack was first built: the pack's cover lists the papers replaced since. */
    packFirstBuiltAt: timestamp("pack_first_built_at", { withTimezone: true }),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    searchVector: searchVector(),
  },
  (t) => [
    index("meetings_search_idx").using("gin", t.searchVector).with({ fastupdate: false }),
    index("meetings_company_starts_idx").on(t.companyId, t.startsAt),
    index("meetings_status_created_idx").on(t.status, t.createdAt),
    index("meetings_created_by_idx").on(t.createdBy),
    index("meetings_chair_idx").on(t.chairId),
  ],
);

/**
 * A meeting's latest board pack, built once and kept under its ETag in the same file store as papers: asked for
 * again with the same tag, it is served as stored. A newer pack of the meeting replaces it (its bytes released).
 */
export const boardPacks = pgTable("board_packs", {
  meetingId: integer("meeting_id")
    .primaryKey()
    .references(() => meetings.documentId, { onDelete: "cascade" }),
  etag: text("etag").notNull(),
  storage: text("storage", { enum: fileStorageKinds }).notNull(),
  location: text("location"),
  storageKey: text("storage_key").notNull(),
  byteSize: integer("byte_size").notNull(),
  createdAt: createdAt(),
});

/** Who has opened a meeting's board pack. */
export const boardPackOpens = pgTable(
  "board_pack_opens",
  {
    meetingId: integer("meeting_id")
      .notNull()
      .references(() => meetings.documentId, { onDelete: "cascade" }),
    userId: belongsTo("user_id", () => users.id),
    firstAt: timestamp("first_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.meetingId, t.userId] }), index("board_pack_opens_user_idx").on(t.userId)],
);

/** Authors told, a week ahead, that a meeting's notes will be deleted under the board's retention setting. */
export const paperNoteRetentionNotices = pgTable(
  "paper_note_retention_notices",
  {
    meetingId: integer("meeting_id")
      .notNull()
      .references(() => meetings.documentId, { onDelete: "cascade" }),
    userId: belongsTo("user_id", () => users.id),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.meetingId, t.userId] })],
);

export const meetingParticipants = pgTable(
  "meeting_participants",
  {
    meetingId: integer("meeting_id")
      .notNull()
      .references(() => meetings.documentId, { onDelete: "cascade" }),
    userId: belongsTo("user_id", () => users.id),
  },
  (t) => [primaryKey({ columns: [t.meetingId, t.userId] }), index("meeting_participants_user_idx").on(t.userId)],
);

/** How each participant attended a meeting; a participant with no row was absent. */
export const meetingAttendance = pgTable(
  "meeting_attendance",
  {
    meetingId: integer("meeting_id")
      .notNull()
      .references(() => meetings.documentId, { onDelete: "cascade" }),
    userId: belongsTo("user_id", () => users.id),
    status: text("status", { enum: attendanceStatuses }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.meetingId, t.userId] }), index("meeting_attendance_user_idx").on(t.userId)],
);

/** Guests at a meeting (not members; they never vote), in `position` order. */
export const meetingGuests = pgTable(
  "meeting_guests",
  {
    meetingId: integer("meeting_id")
      .notNull()
      .references(() => meetings.documentId, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    name: text("name").notNull(),
  },
  (t) => [primaryKey({ columns: [t.meetingId, t.position] })],
);

export const resolutionTypes = ["Ordinary", "Special", "Unanimous"] as const;
export const resolutionStatuses = ["pending", "approved", "rejected", "referred"] as const;

export const resolutions = pgTable(
  "resolutions",
  {
    id: serial("id").primaryKey(),
    companyId: belongsTo("company_id", () => companies.id),
    title: text("title").notNull(),
    description: text("description").notNull(),
    type: text("type", { enum: resolutionTypes }).notNull(),
    status: text("status", { enum: resolutionStatuses }).notNull().default("pending"),
    deadline: timestamp("deadline", { withTimezone: true }).notNull(),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    /** Why it was decided so, in words ("Approved: 3 yes, 1 no ..."); set with the decision. */
    explanation: text("explanation"),
    /** The tally certificate, frozen at the decision (later role changes and departures never alter it). */
    certificate: jsonb("certificate").$type<Certificate>(),
    /** An online vote, or a written resolution signed by each director; never changes. A written one lapses at `deadline`. */
    procedure: text("procedure", { enum: resolutionProcedures }).notNull().default("vote"),
    /** A written resolution's: hex SHA-256 of its text's UTF-8 bytes (`description` never changes). */
    textSha256: text("text_sha256"),
    /** A written resolution's rule as it stood when it was proposed. */
    writtenRule: jsonb("written_rule").$type<WrittenRule>(),
    /** A decided written resolution's certificate, frozen at the decision. */
    writtenCertificate: jsonb("written_certificate").$type<WrittenCertificate>(),
    /** When that certificate was filed in the library as a PDF (after the decision commits). */
    writtenCertificateFiledAt: timestamp("written_certificate_filed_at", { withTimezone: true }),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    searchVector: searchVector(),
  },
  (t) => [
    index("resolutions_company_created_idx").on(t.companyId, t.createdAt),
    index("resolutions_created_by_idx").on(t.createdBy),
    index("resolutions_search_idx").using("gin", t.searchVector).with({ fastupdate: false }),
  ],
);

/** A meeting's agenda, in `position` order (0, 1, ...). */
export const agendaItems = pgTable(
  "agenda_items",
  {
    id: serial("id").primaryKey(),
    meetingId: integer("meeting_id")
      .notNull()
      .references(() => meetings.documentId, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    title: text("title").notNull(),
    presenterId: integer("presenter_id").references(() => users.id, { onDelete: "set null" }),
    durationMinutes: integer("duration_minutes").notNull(),
    description: text("description").notNull().default(""),
    purpose: text("purpose", { enum: agendaPurposes }).notNull().default("discussion"),
    searchVector: searchVector(),
  },
  (t) => [
    index("agenda_items_meeting_idx").on(t.meetingId, t.position),
    index("agenda_items_presenter_idx").on(t.presenterId),
    index("agenda_items_search_idx").using("gin", t.searchVector).with({ fastupdate: false }),
  ],
);

/** The library documents (papers) attached to an agenda item, in `position` order. */
export const agendaItemDocuments = pgTable(
  "agenda_item_documents",
  {
    itemId: belongsTo("item_id", () => agendaItems.id),
    documentId: belongsTo("document_id", () => documents.id),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.itemId, t.documentId] }), index("agenda_item_documents_document_idx").on(t.documentId)],
);

/** The resolutions an agenda item will take, in `position` order. */
export const agendaItemResolutions = pgTable(
  "agenda_item_resolutions",
  {
    itemId: belongsTo("item_id", () => agendaItems.id),
    resolutionId: belongsTo("resolution_id", () => resolutions.id),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.itemId, t.resolutionId] }), index("agenda_item_resolutions_resolution_idx").on(t.resolutionId)],
);

export const minutesRowStatuses = ["draft", "circulated", "approved"] as const;
export const minutesApprovalRoutes = ["resolution", "chair"] as const;

/**
 * A meeting's minutes: drafted from the record, edited, circulated, approved. Once approved the text, its SHA-256,
 * the approving resolution's certificate and the PDF in the library are frozen: nothing changes them after.
 */
export const meetingMinutes = pgTable(
  "meeting_minutes",
  {
    meetingId: integer("meeting_id")
      .primaryKey()
      .references(() => meetings.documentId, { onDelete: "cascade" }),
    status: text("status", { enum: minutesRowStatuses }).notNull(),
    text: text("text").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    updatedBy: integer("updated_by").references(() => users.id, { onDelete: "set null" }),
    circulatedAt: timestamp("circulated_at", { withTimezone: true }),
    /** The resolution proposed to approve them (approval by resolution). */
    resolutionId: integer("resolution_id").references(() => resolutions.id, { onDelete: "set null" }),
    approvedVia: text("approved_via", { enum: minutesApprovalRoutes }),
    approvedAt: timestamp("approved_at", { withTimezone: true }),
    /** The chair who signed them, or whoever's approval closed the resolution route. */
    approvedBy: integer("approved_by").references(() => users.id, { onDelete: "set null" }),
    sha256: text("sha256"),
    /** The approving resolution's certificate, as it was when the minutes were approved. */
    approvalCertificate: jsonb("approval_certificate").$type<Certificate>(),
    /** The approved minutes' PDF in the library. */
    documentId: integer("document_id").references(() => documents.id, { onDelete: "set null" }),
    searchVector: searchVector(),
  },
  (t) => [
    index("meeting_minutes_search_idx").using("gin", t.searchVector).with({ fastupdate: false }),
    index("meeting_minutes_resolution_idx").on(t.resolutionId),
    index("meeting_minutes_document_idx").on(t.documentId),
    index("meeting_minutes_updated_by_idx").on(t.updatedBy),
    index("meeting_minutes_approved_by_idx").on(t.approvedBy),
  ],
);

/** What a meeting asked someone to do, by when. */
export const actionItems = pgTable(
  "action_items",
  {
    id: serial("id").primaryKey(),
    companyId: belongsTo("company_id", () => companies.id),
    meetingId: integer("meeting_id")
      .notNull()
      .references(() => meetings.documentId, { onDelete: "cascade" }),
    title: text("title").notNull(),
    ownerId: belongsTo("owner_id", () => users.id),
    /** A calendar date ("2026-05-01"). */
    dueDate: date("due_date", { mode: "string" }).notNull(),
    status: text("status", { enum: actionItemStatuses }).notNull().default("open"),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    searchVector: searchVector(),
  },
  (t) => [
    index("action_items_search_idx").using("gin", t.searchVector).with({ fastupdate: false }),
    index("action_items_company_status_due_idx").on(t.companyId, t.status, t.dueDate),
    index("action_items_owner_status_idx").on(t.ownerId, t.status),
    index("action_items_meeting_idx").on(t.meetingId),
    index("action_items_created_by_idx").on(t.createdBy),
  ],
);

export const resolutionDocuments = pgTable(
  "resolution_documents",
  {
    resolutionId: belongsTo("resolution_id", () => resolutions.id),
    documentId: belongsTo("document_id", () => documents.id),
  },
  (t) => [primaryKey({ columns: [t.resolutionId, t.documentId] }), index("resolution_documents_document_idx").on(t.documentId)],
);

export const voteChoices = ["yes", "no", "abstain"] as const;

export const votes = pgTable(
  "votes",
  {
    id: serial("id").primaryKey(),
    resolutionId: belongsTo("resolution_id", () => resolutions.id),
    userId: belongsTo("user_id", () => users.id),
    vote: text("vote", { enum: voteChoices }).notNull(),
    comment: text("comment"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("votes_resolution_user_idx").on(t.resolutionId, t.userId), index("votes_user_idx").on(t.userId)],
);

/** Conflicts of interest declared on a pending resolution: the voter leaves its denominator and cannot vote. */
export const resolutionRecusals = pgTable(
  "resolution_recusals",
  {
    resolutionId: belongsTo("resolution_id", () => resolutions.id),
    userId: belongsTo("user_id", () => users.id),
    reason: text("reason").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.resolutionId, t.userId] }), index("resolution_recusals_user_idx").on(t.userId)],
);

/**
 * A director's signature on a written resolution, with its evidence: the canonical statement signed and, for a
 * passkey, the credential, its COSE public key and the assertion (base64url). Withdrawing deletes it; a nonce is
 * accepted once.
 */
export const writtenSignatures = pgTable(
  "written_signatures",
  {
    id: serial("id").primaryKey(),
    resolutionId: belongsTo("resolution_id", () => resolutions.id),
    userId: belongsTo("user_id", () => users.id),
    decision: text("decision", { enum: signDecisions }).notNull(),
    method: text("method", { enum: signatureMethods }).notNull(),
    signedAt: timestamp("signed_at", { withTimezone: true }).notNull(),
    statement: text("statement").notNull(),
    nonce: text("nonce").notNull(),
    credentialId: text("credential_id"),
    publicKey: text("public_key"),
    authenticatorData: text("authenticator_data"),
    clientDataJson: text("client_data_json"),
    signature: text("signature"),
  },
  (t) => [
    uniqueIndex("written_signatures_resolution_user_idx").on(t.resolutionId, t.userId),
    uniqueIndex("written_signatures_nonce_idx").on(t.nonce),
    index("written_signatures_user_idx").on(t.userId),
  ],
);

/** Reminders and nudges sent to a director yet to sign: one of each kind (a nudge's row carries its last time). */
export const writtenSignatureReminders = pgTable(
  "written_signature_reminders",
  {
    resolutionId: belongsTo("resolution_id", () => resolutions.id),
    userId: belongsTo("user_id", () => users.id),
    kind: text("kind", { enum: ["lapse-3-days", "lapse-1-day", "nudge"] }).notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.resolutionId, t.userId, t.kind] }), index("written_signature_reminders_user_idx").on(t.userId)],
);

export const platformServices = pgTable(
  "platform_services",
  {
    id: serial("id").primaryKey(),
    serviceName: text("service_name").notNull(),
    /** AES-256-GCM ciphertext (iv.tag.ciphertext, base64url), never the plain key. */
    serviceKeyEncrypted: text("service_key_encrypted").notNull(),
    /** The first characters of the key, kept so lists can show the masked form without decrypting. */
    serviceKeyPreview: text("service_key_preview").notNull(),
    serviceUrl: text("service_url"),
    isEnabled: boolean("is_enabled").notNull().default(true),
    description: text("description"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("platform_services_name_lower_idx").on(sql`lower(${t.serviceName})`)],
);

export const userPreferences = pgTable("user_preferences", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  settings: jsonb("settings").$type<Record<string, boolean>>().notNull().default({}),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const notifications = pgTable(
  "notifications",
  {
    id: serial("id").primaryKey(),
    userId: belongsTo("user_id", () => users.id),
    companyId: integer("company_id").references(() => companies.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    title: text("title").notNull(),
    body: text("body"),
    link: text("link"),
    readAt: timestamp("read_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("notifications_user_created_idx").on(t.userId, t.createdAt), index("notifications_company_idx").on(t.companyId)],
);

/**
 * The audit trail: one hash chain per company (chain_key = the company's id) and one of platform-wide events
 * (chain_key 0). `hash` is the SHA-256 of the canonical JSON of the event with `prev_hash`, computed by the
 * database function audit_event_hash (migration 0006) in the statement that appends it; rows are never updated.
 * No foreign keys: a removed user or company must not rewrite (null out) a hashed field of the record.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: serial("id").primaryKey(),
    actorId: integer("actor_id"),
    companyId: integer("company_id"),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    details: jsonb("details").$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    chainKey: integer("chain_key").notNull(),
    seq: integer("seq").notNull(),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [
    index("audit_events_actor_idx").on(t.actorId),
    index("audit_events_company_idx").on(t.companyId, t.createdAt),
    uniqueIndex("audit_events_chain_seq_idx").on(t.chainKey, t.seq),
  ],
);

/** The last event of each audit chain: appending updates this row, whose lock keeps concurrent writers from forking the chain. */
export const auditChainHeads = pgTable("audit_chain_heads", {
  chainKey: integer("chain_key").primaryKey(),
  seq: integer("seq").notNull(),
  hash: text("hash").notNull(),
  prevHash: text("prev_hash").notNull(),
});

/** A user's authenticator app (TOTP): the secret encrypted like service keys; it counts once a first code confirmed it. */
export const totpFactors = pgTable("totp_factors", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secretEncrypted: text("secret_encrypted").notNull(),
  confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
  /** The 30-second step of the last code accepted: a code of that step or an earlier one is refused (no replay). */
  lastUsedStep: bigint("last_used_step", { mode: "number" }),
  createdAt: createdAt(),
});

/** One-time recovery codes: only their SHA-256 is kept; a used one is spent. */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: serial("id").primaryKey(),
    userId: belongsTo("user_id", () => users.id),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("recovery_codes_user_idx").on(t.userId)],
);

/** WebAuthn credentials (passkeys) a user registered: the public key and the signature counter the authenticator reported. */
export const passkeys = pgTable(
  "passkeys",
  {
    id: serial("id").primaryKey(),
    userId: belongsTo("user_id", () => users.id),
    /** The credential id, base64url. */
    credentialId: text("credential_id").notNull(),
    publicKey: bytea("public_key").notNull(),
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    transports: jsonb("transports").$type<string[]>(),
    name: text("name").notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("passkeys_credential_idx").on(t.credentialId), index("passkeys_user_idx").on(t.userId)],
);

export const authChallengePurposes = ["second-factor", "passkey-register", "passkey-login", "reauth-passkey", "written-signature"] as const;
export type AuthChallengePurpose = (typeof authChallengePurposes)[number];

/**
 * Short-lived, single-use challenges of a sign-in in progress (a password accepted, a second factor due) and of
 * WebAuthn ceremonies. The client holds a random token; only its SHA-256 is stored. Taking one deletes it.
 */
export const authChallenges = pgTable(
  "auth_challenges",
  {
    id: serial("id").primaryKey(),
    tokenHash: text("token_hash").notNull(),
    purpose: text("purpose", { enum: authChallengePurposes }).notNull(),
    /** Whose sign-in or registration it is; none for a passkey sign-in, which learns the user from the credential. */
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** The WebAuthn challenge the authenticator must sign, base64url. */
    webauthnChallenge: text("webauthn_challenge"),
    /** Wrong codes given against it: the fifth ends it. */
    failures: integer("failures").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("auth_challenges_token_idx").on(t.tokenHash), index("auth_challenges_expiry_idx").on(t.expiresAt)],
);

export const mailStatuses = ["pending", "sending", "sent", "not_sent", "failed"] as const;
export type MailStatus = (typeof mailStatuses)[number];

/**
 * Outgoing e-mail, written in the same transaction as the event it tells of and sent later by the mail
 * worker. `message` is what to say (rendered at send time); `status` moves pending → sending (claimed by one
 * worker) → sent, back to pending with a later `available_at` after a failed attempt, or to not_sent / failed
 * with the reason in `last_error`.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    companyId: integer("company_id").references(() => companies.id, { onDelete: "cascade" }),
    toAddress: text("to_address").notNull(),
    message: jsonb("message").$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: mailStatuses }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** Null: as soon as possible; otherwise not before (a retry's backoff). */
    availableAt: timestamp("available_at", { withTimezone: true }),
    lastError: text("last_error"),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("mail_outbox_status_available_idx").on(t.status, t.availableAt), index("mail_outbox_user_idx").on(t.userId)],
);

/**
 * Keys of things a periodic job must do once only (a meeting's reminder to one user, one week's digest to one
 * user): the job inserts the key and acts only when the insert was new, so two instances or two runs never repeat it.
 */
export const jobMarks = pgTable("job_marks", {
  key: text("key").primaryKey(),
  createdAt: createdAt(),
});
