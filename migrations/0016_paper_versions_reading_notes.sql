-- Papers that change: every version of a document's file is kept, none is ever modified. `documents` keeps its id and
-- describes the latest version (`version`, `replaced_at`, `pages`); `document_files` stays the latest version's bytes,
-- so every reader of the current file is unchanged.
ALTER TABLE "documents"
  ADD COLUMN "version" integer DEFAULT 1 NOT NULL,
  ADD COLUMN "replaced_at" timestamp with time zone,
  ADD COLUMN "pages" integer;--> statement-breakpoint
-- One row per version of a file document: who uploaded it, when, why (the change note; none for the first), and where
-- its bytes are. `bytes` holds an old version's whole-file bytes only when the version was stored that way.
-- `text_status`: whether its text has been taken out page by page (pending, done, none when it has no text layer, failed).
CREATE TABLE "document_versions" (
  "document_id" integer NOT NULL REFERENCES "documents"("id") ON DELETE cascade,
  "version" integer NOT NULL,
  "file_type" text NOT NULL,
  "file_size" bigint NOT NULL,
  "pages" integer,
  "note" text,
  "uploaded_by" integer REFERENCES "users"("id") ON DELETE set null,
  "uploaded_at" timestamp with time zone NOT NULL,
  "storage" text DEFAULT 'database' NOT NULL,
  "location" text,
  "storage_key" text,
  "bytes" bytea,
  "sha256" text,
  "text_status" text DEFAULT 'pending' NOT NULL,
  "text_attempts" integer DEFAULT 0 NOT NULL,
  PRIMARY KEY ("document_id", "version")
);--> statement-breakpoint
CREATE INDEX "document_versions_text_pending_idx" ON "document_versions" USING btree ("text_status") WHERE "text_status" = 'pending';--> statement-breakpoint
-- Every file document today is its own first version.
INSERT INTO "document_versions" ("document_id", "version", "file_type", "file_size", "uploaded_by", "uploaded_at", "storage", "location", "storage_key", "sha256")
  SELECT d."id", 1, d."file_type", d."file_size", d."uploaded_by", d."created_at", f."storage", f."location", f."storage_key", f."sha256"
  FROM "documents" d JOIN "document_files" f ON f."document_id" = d."id";--> statement-breakpoint
-- A version's text, page by page (a file with no pages, such as a Word or text file, is one page).
CREATE TABLE "document_page_texts" (
  "document_id" integer NOT NULL,
  "version" integer NOT NULL,
  "page" integer NOT NULL,
  "text" text NOT NULL,
  PRIMARY KEY ("document_id", "version", "page"),
  FOREIGN KEY ("document_id", "version") REFERENCES "document_versions"("document_id", "version") ON DELETE cascade
);--> statement-breakpoint
-- What changed between two versions, computed once per pair.
CREATE TABLE "document_comparisons" (
  "document_id" integer NOT NULL REFERENCES "documents"("id") ON DELETE cascade,
  "from_version" integer NOT NULL,
  "to_version" integer NOT NULL,
  "result" jsonb NOT NULL,
  "computed_at" timestamp with time zone NOT NULL,
  PRIMARY KEY ("document_id", "from_version", "to_version")
);--> statement-breakpoint
-- The pages of each version a member has opened: their own progress, "changed since you read it", and (opened or not,
-- never which pages) the secretary's read receipts.
CREATE TABLE "document_page_reads" (
  "user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE cascade,
  "document_id" integer NOT NULL,
  "version" integer NOT NULL,
  "page" integer NOT NULL,
  "first_at" timestamp with time zone NOT NULL,
  PRIMARY KEY ("user_id", "document_id", "version", "page"),
  FOREIGN KEY ("document_id", "version") REFERENCES "document_versions"("document_id", "version") ON DELETE cascade
);--> statement-breakpoint
CREATE INDEX "document_page_reads_document_idx" ON "document_page_reads" USING btree ("document_id");--> statement-breakpoint
-- Who has opened a meeting's board pack.
CREATE TABLE "board_pack_opens" (
  "meeting_id" integer NOT NULL REFERENCES "meetings"("document_id") ON DELETE cascade,
  "user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE cascade,
  "first_at" timestamp with time zone NOT NULL,
  PRIMARY KEY ("meeting_id", "user_id")
);--> statement-breakpoint
CREATE INDEX "board_pack_opens_user_idx" ON "board_pack_opens" USING btree ("user_id");--> statement-breakpoint
-- A director's private notes on a paper's page. `sealed` is the note's text and quote, encrypted under a key derived
-- from APP_SECRET and the author: nothing else stores or shows them. A note whose page is gone in a newer version is
-- `unplaced`, and stays on the version and page it was written on.
CREATE TABLE "paper_notes" (
  "id" serial PRIMARY KEY NOT NULL,
  "user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE cascade,
  "company_id" integer NOT NULL REFERENCES "companies"("id") ON DELETE cascade,
  "document_id" integer NOT NULL REFERENCES "documents"("id") ON DELETE cascade,
  "version" integer NOT NULL,
  "page" integer NOT NULL,
  "unplaced" boolean DEFAULT false NOT NULL,
  "sealed" text NOT NULL,
  "created_at" timestamp with time zone NOT NULL,
  "updated_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "paper_notes_user_document_idx" ON "paper_notes" USING btree ("user_id", "document_id");--> statement-breakpoint
CREATE INDEX "paper_notes_document_idx" ON "paper_notes" USING btree ("document_id");--> statement-breakpoint
-- Authors told, a week ahead, that a meeting's notes will be deleted under the board's retention setting.
CREATE TABLE "paper_note_retention_notices" (
  "meeting_id" integer NOT NULL REFERENCES "meetings"("document_id") ON DELETE cascade,
  "user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE cascade,
  "sent_at" timestamp with time zone NOT NULL,
  PRIMARY KEY ("meeting_id", "user_id")
);--> statement-breakpoint
-- The board's reading settings: whether the secretary sees who has opened the pack and papers, and how long notes are
-- kept (null: kept; otherwise deleted this many days after the meeting's minutes are approved).
ALTER TABLE "companies"
  ADD COLUMN "read_receipts" boolean DEFAULT true NOT NULL,
  ADD COLUMN "notes_retention_days" integer;--> statement-breakpoint
-- When a meeting's board pack was first built: its cover lists the papers replaced since.
ALTER TABLE "meetings" ADD COLUMN "pack_first_built_at" timestamp with time zone;--> statement-breakpoint
-- What an agenda item is for: a decision, a discussion, or noting.
ALTER TABLE "agenda_items" ADD COLUMN "purpose" text DEFAULT 'discussion' NOT NULL;
