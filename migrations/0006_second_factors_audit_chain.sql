CREATE TABLE "audit_chain_heads" (
	"chain_key" integer PRIMARY KEY NOT NULL,
	"seq" integer NOT NULL,
	"hash" text NOT NULL,
	"prev_hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_challenges" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"purpose" text NOT NULL,
	"user_id" integer,
	"webauthn_challenge" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "passkeys" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"credential_id" text NOT NULL,
	"public_key" "bytea" NOT NULL,
	"counter" bigint DEFAULT 0 NOT NULL,
	"transports" jsonb,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "recovery_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "totp_factors" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"secret_encrypted" text NOT NULL,
	"confirmed_at" timestamp with time zone,
	"last_used_step" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_events" DROP CONSTRAINT "audit_events_actor_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "audit_events" DROP CONSTRAINT "audit_events_company_id_companies_id_fk";
--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "chain_key" integer;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "seq" integer;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "prev_hash" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "hash" text;--> statement-breakpoint
-- The canonical JSON of a value: keys sorted at every level, no spaces, strings escaped as JSON.stringify does.
-- The offline verifier (shared/audit-chain.ts) encodes an event the same way; a test holds the two together.
CREATE FUNCTION audit_canonical_json(value jsonb) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  result text;
BEGIN
  CASE jsonb_typeof(value)
    WHEN 'object' THEN
      SELECT '{' || coalesce(string_agg(to_jsonb(entry.key)::text || ':' || audit_canonical_json(entry.item), ',' ORDER BY entry.key COLLATE "C"), '') || '}'
        INTO result FROM jsonb_each(value) AS entry(key, item);
    WHEN 'array' THEN
      SELECT '[' || coalesce(string_agg(audit_canonical_json(element.item), ',' ORDER BY element.position), '') || ']'
        INTO result FROM jsonb_array_elements(value) WITH ORDINALITY AS element(item, position);
    ELSE
      result := value::text;
  END CASE;
  RETURN result;
END
$$;--> statement-breakpoint
-- An event's hash: SHA-256 (hex) of the canonical JSON of the event without its hash, its time in ISO 8601 UTC with milliseconds.
CREATE FUNCTION audit_event_hash(seq integer, at timestamptz, actor_id integer, company_id integer, action text, target_type text, target_id text, details jsonb, prev_hash text) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT encode(sha256(convert_to(audit_canonical_json(jsonb_build_object(
    'seq', seq,
    'at', to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'actorId', actor_id,
    'companyId', company_id,
    'action', action,
    'targetType', target_type,
    'targetId', target_id,
    'details', details,
    'prevHash', prev_hash
  )), 'UTF8')), 'hex')
$$;--> statement-breakpoint
-- Events recorded before the chain are chained in the order they were written.
DO $$
DECLARE
  event record;
  genesis constant text := repeat('0', 64);
  new_seq integer;
  new_prev text;
  new_hash text;
BEGIN
  FOR event IN SELECT * FROM audit_events ORDER BY id LOOP
    INSERT INTO audit_chain_heads AS head (chain_key, seq, prev_hash, hash)
    VALUES (coalesce(event.company_id, 0), 1, genesis,
      audit_event_hash(1, event.created_at, event.actor_id, event.company_id, event.action, event.target_type, event.target_id, event.details, genesis))
    ON CONFLICT (chain_key) DO UPDATE SET seq = head.seq + 1, prev_hash = head.hash,
      hash = audit_event_hash(head.seq + 1, event.created_at, event.actor_id, event.company_id, event.action, event.target_type, event.target_id, event.details, head.hash)
    RETURNING head.seq, head.prev_hash, head.hash INTO new_seq, new_prev, new_hash;
    UPDATE audit_events SET chain_key = coalesce(event.company_id, 0), seq = new_seq, prev_hash = new_prev, hash = new_hash WHERE id = event.id;
  END LOOP;
END
$$;--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "chain_key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "seq" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "prev_hash" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "hash" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "require_second_factor" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "second_factor_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "second_factor" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "auth_challenges" ADD CONSTRAINT "auth_challenges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passkeys" ADD CONSTRAINT "passkeys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "totp_factors" ADD CONSTRAINT "totp_factors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "auth_challenges_token_idx" ON "auth_challenges" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "auth_challenges_expiry_idx" ON "auth_challenges" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "passkeys_credential_idx" ON "passkeys" USING btree ("credential_id");--> statement-breakpoint
CREATE INDEX "passkeys_user_idx" ON "passkeys" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "recovery_codes_user_idx" ON "recovery_codes" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "audit_events_chain_seq_idx" ON "audit_events" USING btree ("chain_key","seq");