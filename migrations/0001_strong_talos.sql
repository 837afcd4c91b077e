CREATE TABLE "file_chunks" (
	"storage_key" text NOT NULL,
	"seq" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "file_chunks_storage_key_seq_pk" PRIMARY KEY("storage_key","seq")
);
--> statement-breakpoint
CREATE TABLE "file_sweep" (
	"id" serial PRIMARY KEY NOT NULL,
	"storage" text NOT NULL,
	"location" text,
	"storage_key" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "document_files" ADD COLUMN "storage" text DEFAULT 'database' NOT NULL;--> statement-breakpoint
ALTER TABLE "document_files" ADD COLUMN "location" text;--> statement-breakpoint
ALTER TABLE "document_files" ADD COLUMN "sha256" text;--> statement-breakpoint
CREATE INDEX "file_sweep_due_idx" ON "file_sweep" USING btree ("due_at");--> statement-breakpoint
CREATE INDEX "file_sweep_key_idx" ON "file_sweep" USING btree ("storage_key");