-- Who may vote on a resolution, and whether a session stands, each defined once here: the app's queries select from
-- these, the vote taken in one call uses them, and so does the "vote closing soon" reminder.
--
-- Those who hold a vote on a resolution: every founder, admin and member of its company, never an observer. The roles
-- are the ones the app's permissions let vote (a test holds the two together); written as literals so the planner
-- knows which memberships they select.
CREATE VIEW resolution_vote_holders AS
SELECT r.id AS resolution_id, r.company_id, m.user_id, m.role
FROM resolutions r
JOIN memberships m ON m.company_id = r.company_id AND m.role IN ('founder', 'admin', 'member');--> statement-breakpoint
-- Who may vote on a resolution: those who hold a vote on it, less whoever declared a conflict of interest on it. A
-- tally may count the holders' votes: declaring a conflict withdraws the declarer's vote, and their vote is refused
-- while it stands, both under the resolution's row lock.
CREATE VIEW resolution_voters AS
SELECT h.resolution_id, h.company_id, h.user_id, h.role
FROM resolution_vote_holders h
WHERE NOT EXISTS (SELECT 1 FROM resolution_recusals c WHERE c.resolution_id = h.resolution_id AND c.user_id = h.user_id);--> statement-breakpoint
-- A session stands at `p_at` while it expires after that and was last used after `p_idle_since` (the app derives the
-- idle bound from its idle limit). One SELECT of one expression, so the planner inlines it where it is called.
CREATE FUNCTION session_stands(p_expires_at timestamptz, p_last_used_at timestamptz, p_at timestamptz,
  p_idle_since timestamptz) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT p_expires_at > p_at AND p_last_used_at > p_idle_since
$$;--> statement-breakpoint
-- The vote in one call (migrations 0009 and 0010), now asking the definitions above who may vote and whether the
-- session stands. Otherwise as before: it takes the vote only when nothing but the vote is to be done, and answers NULL
-- in every other case for the app's transaction to handle. Its signature stays, so app instances from before this
-- migration still call it during a rolling deploy; `p_voting_roles` is no longer read.
CREATE OR REPLACE FUNCTION quorum_vote_if_clear(p_resolution_id integer, p_voter_id integer, p_session_id integer,
  p_idle_since timestamptz, p_choice text, p_comment text, p_at timestamptz, p_voting_roles text[]) RETURNS jsonb
  LANGUAGE plpgsql AS $$
DECLARE
  resolution record;
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
  IF NOT EXISTS (SELECT 1 FROM sessions s WHERE s.id = p_session_id AND s.user_id = p_voter_id
    AND session_stands(s.expires_at, s.last_used_at, p_at, p_idle_since)) THEN
    RETURN NULL;
  END IF;

  IF NOT EXISTS (SELECT 1 FROM resolution_voters v WHERE v.resolution_id = resolution.id AND v.user_id = p_voter_id) THEN
    RETURN NULL;
  END IF;
  IF (SELECT c.require_second_factor FROM companies c WHERE c.id = resolution.company_id)
    AND (SELECT s.second_factor_at FROM sessions s WHERE s.id = p_session_id) IS NULL THEN
    RETURN NULL;
  END IF;

  SELECT count(*) FILTER (WHERE v.vote = 'yes') AS yes, count(*) FILTER (WHERE v.vote = 'no') AS no,
    count(*) FILTER (WHERE v.vote = 'abstain') AS abstain, max(v.vote) FILTER (WHERE v.user_id = p_voter_id) AS own
  INTO counts
  FROM votes v
  JOIN resolution_vote_holders h ON h.resolution_id = v.resolution_id AND h.user_id = v.user_id
  WHERE v.resolution_id = resolution.id;
  SELECT count(*) INTO eligible FROM resolution_voters v WHERE v.resolution_id = resolution.id;
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
