-- Written resolutions: decided by each eligible director's signature between meetings, instead of an online vote.
--
-- The board's rule for them, changed by founders and admins: unanimity (the default) or a majority, where a share of
-- the eligible directors (percent, 33 by default) may ask for a meeting instead; how many days one stays open; and
-- whether a signature may be withdrawn until the resolution takes effect.
ALTER TABLE "companies"
  ADD COLUMN "written_resolution_rule" text DEFAULT 'unanimous' NOT NULL,
  ADD COLUMN "written_lapse_days" integer DEFAULT 28 NOT NULL,
  ADD COLUMN "written_allow_withdrawal" boolean DEFAULT true NOT NULL,
  ADD COLUMN "written_meeting_demand_percent" integer DEFAULT 33 NOT NULL;--> statement-breakpoint
-- A resolution's procedure never changes. A written one keeps the SHA-256 of its text, the rule as it stood when it was
-- proposed (the company's setting may change later), and, once decided, its frozen certificate. Its `deadline` is the
-- moment it lapses.
ALTER TABLE "resolutions"
  ADD COLUMN "procedure" text DEFAULT 'vote' NOT NULL,
  ADD COLUMN "text_sha256" text,
  ADD COLUMN "written_rule" jsonb,
  ADD COLUMN "written_certificate" jsonb;--> statement-breakpoint
-- One signature per director per written resolution, with the evidence of how it was given. A withdrawn signature is
-- deleted (the audit trail keeps that it was given and withdrawn); a nonce is never accepted twice.
CREATE TABLE "written_signatures" (
  "id" serial PRIMARY KEY NOT NULL,
  "resolution_id" integer NOT NULL REFERENCES "resolutions"("id") ON DELETE cascade,
  "user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE cascade,
  "decision" text NOT NULL,
  "method" text NOT NULL,
  "signed_at" timestamp with time zone NOT NULL,
  "statement" text NOT NULL,
  "nonce" text NOT NULL,
  "credential_id" text,
  "public_key" text,
  "authenticator_data" text,
  "client_data_json" text,
  "signature" text
);--> statement-breakpoint
CREATE UNIQUE INDEX "written_signatures_resolution_user_idx" ON "written_signatures" USING btree ("resolution_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "written_signatures_nonce_idx" ON "written_signatures" USING btree ("nonce");--> statement-breakpoint
CREATE INDEX "written_signatures_user_idx" ON "written_signatures" USING btree ("user_id");--> statement-breakpoint
-- Reminders and nudges sent to a director who has not yet signed: at most one nudge a day, one reminder of each kind.
CREATE TABLE "written_signature_reminders" (
  "resolution_id" integer NOT NULL REFERENCES "resolutions"("id") ON DELETE cascade,
  "user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE cascade,
  "kind" text NOT NULL,
  "sent_at" timestamp with time zone NOT NULL,
  PRIMARY KEY ("resolution_id", "user_id", "kind")
);--> statement-breakpoint
CREATE INDEX "written_signature_reminders_user_idx" ON "written_signature_reminders" USING btree ("user_id");--> statement-breakpoint
-- The vote in one call never takes a vote on a written resolution: it answers NULL, and the app's transaction refuses
-- it. A wrapper keeps the function's body in one migration; a resolution's procedure never changes, so reading it
-- before the vote's own lock is safe.
ALTER FUNCTION quorum_vote_if_clear(integer, integer, integer, timestamptz, text, text, timestamptz, text[])
  RENAME TO quorum_vote_if_clear_on_vote;--> statement-breakpoint
CREATE FUNCTION quorum_vote_if_clear(p_resolution_id integer, p_voter_id integer, p_session_id integer,
  p_idle_since timestamptz, p_choice text, p_comment text, p_at timestamptz, p_voting_roles text[]) RETURNS jsonb
  LANGUAGE plpgsql AS $$
BEGIN
  -- plpgsql, not sql: its two statements are planned once per connection, not on every vote.
  IF (SELECT r.procedure FROM resolutions r WHERE r.id = p_resolution_id) IS DISTINCT FROM 'vote' THEN RETURN NULL; END IF;
  RETURN quorum_vote_if_clear_on_vote(p_resolution_id, p_voter_id, p_session_id, p_idle_since, p_choice, p_comment, p_at,
    p_voting_roles);
END;
$$;
