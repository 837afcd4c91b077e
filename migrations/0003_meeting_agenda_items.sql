CREATE TABLE "agenda_item_documents" (
	"item_id" integer NOT NULL,
	"document_id" integer NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "agenda_item_documents_item_id_document_id_pk" PRIMARY KEY("item_id","document_id")
);
--> statement-breakpoint
CREATE TABLE "agenda_item_resolutions" (
	"item_id" integer NOT NULL,
	"resolution_id" integer NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "agenda_item_resolutions_item_id_resolution_id_pk" PRIMARY KEY("item_id","resolution_id")
);
--> statement-breakpoint
CREATE TABLE "agenda_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"meeting_id" integer NOT NULL,
	"position" integer NOT NULL,
	"title" text NOT NULL,
	"presenter_id" integer,
	"duration_minutes" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "meetings" ADD COLUMN "sequence" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "agenda_item_documents" ADD CONSTRAINT "agenda_item_documents_item_id_agenda_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."agenda_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agenda_item_documents" ADD CONSTRAINT "agenda_item_documents_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agenda_item_resolutions" ADD CONSTRAINT "agenda_item_resolutions_item_id_agenda_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."agenda_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agenda_item_resolutions" ADD CONSTRAINT "agenda_item_resolutions_resolution_id_resolutions_id_fk" FOREIGN KEY ("resolution_id") REFERENCES "public"."resolutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agenda_items" ADD CONSTRAINT "agenda_items_meeting_id_meetings_document_id_fk" FOREIGN KEY ("meeting_id") REFERENCES "public"."meetings"("document_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agenda_items" ADD CONSTRAINT "agenda_items_presenter_id_users_id_fk" FOREIGN KEY ("presenter_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agenda_item_documents_document_idx" ON "agenda_item_documents" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "agenda_item_resolutions_resolution_idx" ON "agenda_item_resolutions" USING btree ("resolution_id");--> statement-breakpoint
CREATE INDEX "agenda_items_meeting_idx" ON "agenda_items" USING btree ("meeting_id","position");--> statement-breakpoint
CREATE INDEX "agenda_items_presenter_idx" ON "agenda_items" USING btree ("presenter_id");