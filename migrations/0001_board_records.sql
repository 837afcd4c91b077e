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
CREATE TABLE "job_marks" (
	"key" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"company_id" integer,
	"to_address" text NOT NULL,
	"message" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"available_at" timestamp with time zone,
	"last_error" text,
	"claimed_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "resolution_recusals" (
	"resolution_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "resolution_recusals_resolution_id_user_id_pk" PRIMARY KEY("resolution_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "quorum_percent" integer;--> statement-breakpoint
ALTER TABLE "document_files" ADD COLUMN "storage" text DEFAULT 'database' NOT NULL;--> statement-breakpoint
ALTER TABLE "document_files" ADD COLUMN "location" text;--> statement-breakpoint
ALTER TABLE "document_files" ADD COLUMN "sha256" text;--> statement-breakpoint
ALTER TABLE "resolutions" ADD COLUMN "explanation" text;--> statement-breakpoint
ALTER TABLE "resolutions" ADD COLUMN "certificate" jsonb;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "user_agent" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resolution_recusals" ADD CONSTRAINT "resolution_recusals_resolution_id_resolutions_id_fk" FOREIGN KEY ("resolution_id") REFERENCES "public"."resolutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resolution_recusals" ADD CONSTRAINT "resolution_recusals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "file_sweep_due_idx" ON "file_sweep" USING btree ("due_at");--> statement-breakpoint
CREATE INDEX "file_sweep_key_idx" ON "file_sweep" USING btree ("storage_key");--> statement-breakpoint
CREATE INDEX "mail_outbox_status_available_idx" ON "mail_outbox" USING btree ("status","available_at");--> statement-breakpoint
CREATE INDEX "mail_outbox_user_idx" ON "mail_outbox" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "resolution_recusals_user_idx" ON "resolution_recusals" USING btree ("user_id");