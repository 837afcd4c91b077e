-- Built board packs, kept under their ETag in the file store (database chunks or object storage) and served again
-- without being rebuilt; one per meeting, the newest.
CREATE TABLE "board_packs" (
	"meeting_id" integer PRIMARY KEY NOT NULL,
	"etag" text NOT NULL,
	"storage" text NOT NULL,
	"location" text,
	"storage_key" text NOT NULL,
	"byte_size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "board_packs" ADD CONSTRAINT "board_packs_meeting_id_meetings_document_id_fk" FOREIGN KEY ("meeting_id") REFERENCES "public"."meetings"("document_id") ON DELETE cascade ON UPDATE no action;
