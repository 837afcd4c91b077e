CREATE TABLE "action_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"meeting_id" integer NOT NULL,
	"title" text NOT NULL,
	"owner_id" integer NOT NULL,
	"due_date" date NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"completed_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meeting_attendance" (
	"meeting_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"status" text NOT NULL,
	CONSTRAINT "meeting_attendance_meeting_id_user_id_pk" PRIMARY KEY("meeting_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "meeting_guests" (
	"meeting_id" integer NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "meeting_guests_meeting_id_position_pk" PRIMARY KEY("meeting_id","position")
);
--> statement-breakpoint
CREATE TABLE "meeting_minutes" (
	"meeting_id" integer PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"text" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	"circulated_at" timestamp with time zone,
	"resolution_id" integer,
	"approved_via" text,
	"approved_at" timestamp with time zone,
	"approved_by" integer,
	"sha256" text,
	"approval_certificate" jsonb,
	"document_id" integer
);
--> statement-breakpoint
ALTER TABLE "meetings" ADD COLUMN "chair_id" integer;--> statement-breakpoint
ALTER TABLE "action_items" ADD CONSTRAINT "action_items_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "action_items" ADD CONSTRAINT "action_items_meeting_id_meetings_document_id_fk" FOREIGN KEY ("meeting_id") REFERENCES "public"."meetings"("document_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "action_items" ADD CONSTRAINT "action_items_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "action_items" ADD CONSTRAINT "action_items_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting_attendance" ADD CONSTRAINT "meeting_attendance_meeting_id_meetings_document_id_fk" FOREIGN KEY ("meeting_id") REFERENCES "public"."meetings"("document_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting_attendance" ADD CONSTRAINT "meeting_attendance_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting_guests" ADD CONSTRAINT "meeting_guests_meeting_id_meetings_document_id_fk" FOREIGN KEY ("meeting_id") REFERENCES "public"."meetings"("document_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting_minutes" ADD CONSTRAINT "meeting_minutes_meeting_id_meetings_document_id_fk" FOREIGN KEY ("meeting_id") REFERENCES "public"."meetings"("document_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting_minutes" ADD CONSTRAINT "meeting_minutes_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting_minutes" ADD CONSTRAINT "meeting_minutes_resolution_id_resolutions_id_fk" FOREIGN KEY ("resolution_id") REFERENCES "public"."resolutions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting_minutes" ADD CONSTRAINT "meeting_minutes_approved_by_users_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting_minutes" ADD CONSTRAINT "meeting_minutes_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "action_items_company_status_due_idx" ON "action_items" USING btree ("company_id","status","due_date");--> statement-breakpoint
CREATE INDEX "action_items_owner_status_idx" ON "action_items" USING btree ("owner_id","status");--> statement-breakpoint
CREATE INDEX "action_items_meeting_idx" ON "action_items" USING btree ("meeting_id");--> statement-breakpoint
CREATE INDEX "action_items_created_by_idx" ON "action_items" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "meeting_attendance_user_idx" ON "meeting_attendance" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "meeting_minutes_resolution_idx" ON "meeting_minutes" USING btree ("resolution_id");--> statement-breakpoint
CREATE INDEX "meeting_minutes_document_idx" ON "meeting_minutes" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "meeting_minutes_updated_by_idx" ON "meeting_minutes" USING btree ("updated_by");--> statement-breakpoint
CREATE INDEX "meeting_minutes_approved_by_idx" ON "meeting_minutes" USING btree ("approved_by");--> statement-breakpoint
ALTER TABLE "meetings" ADD CONSTRAINT "meetings_chair_id_users_id_fk" FOREIGN KEY ("chair_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "meetings_chair_idx" ON "meetings" USING btree ("chair_id");