CREATE TABLE "resolution_recusals" (
	"resolution_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "resolution_recusals_resolution_id_user_id_pk" PRIMARY KEY("resolution_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "quorum_percent" integer;--> statement-breakpoint
ALTER TABLE "resolutions" ADD COLUMN "explanation" text;--> statement-breakpoint
ALTER TABLE "resolutions" ADD COLUMN "certificate" jsonb;--> statement-breakpoint
ALTER TABLE "resolution_recusals" ADD CONSTRAINT "resolution_recusals_resolution_id_resolutions_id_fk" FOREIGN KEY ("resolution_id") REFERENCES "public"."resolutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resolution_recusals" ADD CONSTRAINT "resolution_recusals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "resolution_recusals_user_idx" ON "resolution_recusals" USING btree ("user_id");