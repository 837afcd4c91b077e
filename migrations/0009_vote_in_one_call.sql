-- An audit event's append to its chain, in one place: every write's event (the app's statements call it) and the
-- vote taken in one call below. The chain's head row is taken with INSERT … ON CONFLICT DO UPDATE, which locks it
-- until the transaction ends and reads its latest committed version, so concurrent writers of one chain queue there
-- and each links to the one before: the chain cannot fork. The hash is computed from the very values stored.
CREATE FUNCTION append_audit_event(p_at timestamptz, p_actor_id integer, p_company_id integer, p_action text,
  p_target_type text, p_target_id text, p_details jsonb, p_chain_key integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  genesis constant text := repeat('0', 64);
  new_seq integer;
  new_prev text;
  new_hash text;
BEGIN
  INSERT INTO audit_chain_heads AS head (chain_key, seq, prev_hash, hash)
  VALUES (p_chain_key, 1, genesis,
    audit_event_hash(1, p_at, p_actor_id, p_company_id, p_action, p_target_type, p_target_id, p_details, genesis))
  ON CONFLICT (chain_key) DO UPDATE SET seq = head.seq + 1, prev_hash = head.hash,
    hash = audit_event_hash(head.seq + 1, p_at, p_actor_id, p_company_id, p_action, p_target_type, p_target_id, p_details, head.hash)
  RETURNING head.seq, head.prev_hash, head.hash INTO new_seq, new_prev, new_hash;
  INSERT INTO audit_events (actor_id, company_id, action, target_type, target_id, details, created_at, chain_key, seq, prev_hash, hash)
  VALUES (p_actor_id, p_company_id, p_action, p_target_type, p_target_id, p_details, p_at, p_chain_key, new_seq, new_prev, new_hash);
END;
$$;--> statement-breakpoint
-- A vote in one round trip, when nothing but the vote itself is to be done: the caller's session stands (neither
-- revoked, expired nor idle since `p_idle_since`), the resolution is pending and before its deadline, the caller may
-- vote on it (a member in one of `p_voting_roles`, with no conflict declared, with a second factor where the company
-- asks for one), and the vote leaves someone eligible still to vote. It then takes the vote and its audit event and
-- answers the tally with it. In every other case it changes nothing and answers NULL, and the app takes the vote its
-- own way, in a transaction that decides the resolution or gives the refusal.
--
-- Under READ COMMITTED each statement here sees what was committed before it began: those after the row lock see
-- every vote, and every revocation, committed before the lock was granted. `p_at` is the vote's arrival.
CREATE FUNCTION quorum_vote_if_clear(p_resolution_id integer, p_voter_id integer, p_session_id integer,
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
    AND NOT (SELECT u.second_factor FROM users u WHERE u.id = p_voter_id) THEN
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
