-- Who may join a board: addresses count once proved, invitations are links answered by their holder, password
-- resets, a fresh proof for security changes, and an end to guessing second-step codes.
--
-- Every account that exists now keeps its seat: its address counts as proved.
ALTER TABLE "users" ADD COLUMN "email_verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "users" SET "email_verified" = true;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pending_email" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "password_set" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "second_factor_locked_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "second_factor_locks" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Only a proved address is reserved.
DROP INDEX "users_email_lower_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "users_verified_email_lower_idx" ON "users" USING btree (lower("email")) WHERE "users"."email_verified" and "users"."email" <> '';--> statement-breakpoint
CREATE INDEX "users_email_lower_idx" ON "users" USING btree (lower("email"));--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "reauth_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "auth_challenges" ADD COLUMN "failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Invitations are kept once answered; those pending now live 14 more days and get a link when resent.
ALTER TABLE "invitations" ADD COLUMN "token_hash" text;--> statement-breakpoint
ALTER TABLE "invitations" ADD COLUMN "status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "invitations" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
UPDATE "invitations" SET "expires_at" = now() + interval '14 days';--> statement-breakpoint
ALTER TABLE "invitations" ALTER COLUMN "expires_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "invitations" ADD COLUMN "responded_at" timestamp with time zone;--> statement-breakpoint
-- The link shown to the inviter joins but proves no address (the mailed one, token_hash, does both).
ALTER TABLE "invitations" ADD COLUMN "shared_token_hash" text;--> statement-breakpoint
DROP INDEX "invitations_company_email_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_pending_company_email_idx" ON "invitations" USING btree ("company_id",lower("email")) WHERE "invitations"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_token_idx" ON "invitations" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_shared_token_idx" ON "invitations" USING btree ("shared_token_hash");--> statement-breakpoint
CREATE TABLE "account_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"purpose" text NOT NULL,
	"token_hash" text NOT NULL,
	"email" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "account_tokens" ADD CONSTRAINT "account_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_tokens_token_idx" ON "account_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "account_tokens_user_idx" ON "account_tokens" USING btree ("user_id","purpose");--> statement-breakpoint
CREATE TABLE "second_factor_failures" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"failed_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
ALTER TABLE "second_factor_failures" ADD CONSTRAINT "second_factor_failures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "second_factor_failures_user_idx" ON "second_factor_failures" USING btree ("user_id","failed_at");--> statement-breakpoint
CREATE TABLE "rate_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"bucket" text NOT NULL,
	"key" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "rate_events_bucket_key_idx" ON "rate_events" USING btree ("bucket","key","at");--> statement-breakpoint
-- A company that requires a second factor asks whether the vote's session passed one, not whether the account has one.
-- The rest of the function is as migration 0009 wrote it.
CREATE OR REPLACE FUNCTION quorum_vote_if_clear(p_resolution_id integer, p_voter_id integer, p_session_id integer,
  p_idle_since timestamptz, p_choice text, p_comment text, p_at timestamptz, p_voting_roles text[]) RETURNS jsonb
  LANGUAGE plpgsql AS $$
DECLARE
  resolution record;
  voter_role text;
  counts record;
  eligible integer;
  cast_after integer;
BEGIN
  -- A caller from another company never holds the lock its voters wait on.
  SELECT r.id, r.company_id, r.status, r.deadline INTO resolution FROM resolutions r
  WHERE r.id = p_resolution_id
    AND EXISTS (SELECT 1 FROM memberships m WHERE m.company_id = r.company_id AND m.user_id = p_voter_id)
  FOR UPDATE;
  IF NOT FOUND OR resolution.status <> 'pending' OR resolution.deadline <= p_at THEN RETURN NULL; END IF;
  -- After the lock, as every check: a session revoked while the vote waited for it is seen here.
  IF NOT EXISTS (SELECT 1 FROM sessions s WHERE s.id = p_session_id AND s.user_id = p_voter_id AND s.expires_at > p_at
    AND s.last_used_at > p_idle_since) THEN
    RETURN NULL;
  END IF;

  SELECT m.role INTO voter_role FROM memberships m WHERE m.company_id = resolution.company_id AND m.user_id = p_voter_id;
  IF voter_role IS NULL OR NOT (voter_role = ANY (p_voting_roles)) THEN RETURN NULL; END IF;
  IF EXISTS (SELECT 1 FROM resolution_recusals c WHERE c.resolution_id = resolution.id AND c.user_id = p_voter_id) THEN
    RETURN NULL;
  END IF;
  IF (SELECT c.require_second_factor FROM companies c WHERE c.id = resolution.company_id)
    AND (SELECT s.second_factor_at FROM sessions s WHERE s.id = p_session_id) IS NULL THEN
    RETURN NULL;
  END IF;

  -- The live tally: the votes of those who hold a vote in the company (no one with a conflict has a vote to count).
  SELECT count(*) FILTER (WHERE v.vote = 'yes') AS yes, count(*) FILTER (WHERE v.vote = 'no') AS no,
    count(*) FILTER (WHERE v.vote = 'abstain') AS abstain, max(v.vote) FILTER (WHERE v.user_id = p_voter_id) AS own
  INTO counts
  FROM votes v
  JOIN memberships m ON m.user_id = v.user_id AND m.company_id = resolution.company_id AND m.role = ANY (p_voting_roles)
  WHERE v.resolution_id = resolution.id;
  SELECT count(*) INTO eligible FROM memberships m
  WHERE m.company_id = resolution.company_id AND m.role = ANY (p_voting_roles)
    AND NOT EXISTS (SELECT 1 FROM resolution_recusals c WHERE c.resolution_id = resolution.id AND c.user_id = m.user_id);
  -- A vote after which everyone eligible has voted decides the resolution: the app's transaction takes it.
  cast_after := counts.yes + counts.no + counts.abstain + (counts.own IS NULL)::int;
  IF cast_after >= eligible THEN RETURN NULL; END IF;

  INSERT INTO votes (resolution_id, user_id, vote, comment, created_at, updated_at)
  VALUES (resolution.id, p_voter_id, p_choice, p_comment, p_at, p_at)
  ON CONFLICT (resolution_id, user_id) DO UPDATE SET vote = excluded.vote, comment = excluded.comment, updated_at = excluded.updated_at;
  PERFORM append_audit_event(p_at, p_voter_id, resolution.company_id,
    CASE WHEN counts.own IS NULL THEN 'resolution.voted' ELSE 'resolution.vote_changed' END, 'resolution', resolution.id::text,
    CASE WHEN counts.own IS NULL THEN jsonb_build_object('vote', p_choice) ELSE jsonb_build_object('from', counts.own, 'to', p_choice) END,
    resolution.company_id);

  RETURN jsonb_build_object(
    'yes', counts.yes + (p_choice = 'yes')::int - (counts.own IS NOT DISTINCT FROM 'yes')::int,
    'no', counts.no + (p_choice = 'no')::int - (counts.own IS NOT DISTINCT FROM 'no')::int,
    'abstain', counts.abstain + (p_choice = 'abstain')::int - (counts.own IS NOT DISTINCT FROM 'abstain')::int);
END;
$$;
