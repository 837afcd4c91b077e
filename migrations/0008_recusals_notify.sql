-- A conflict declared or withdrawn changes who may vote on a resolution, and so its live counts: announced as a
-- change of its votes, as a vote is (instances drop what they keep of its poll; open streams read its counts again).
CREATE OR REPLACE FUNCTION quorum_notify_live() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed record;
BEGIN
  IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
  IF TG_TABLE_NAME IN ('votes', 'resolution_recusals') THEN
    -- pg_notify folds identical payloads of one transaction into one.
    PERFORM pg_notify('quorum_live', json_build_object('k', 'v', 'r', changed.resolution_id)::text);
  ELSIF TG_TABLE_NAME = 'resolutions' THEN
    PERFORM pg_notify('quorum_live', json_build_object('k', 'r', 'r', changed.id, 'c', changed.company_id)::text);
  ELSIF TG_TABLE_NAME = 'notifications' THEN
    PERFORM pg_notify('quorum_live', json_build_object('k', 'n', 'n', changed.id, 'u', changed.user_id)::text);
  ELSIF TG_TABLE_NAME = 'meetings' THEN
    PERFORM pg_notify('quorum_live', json_build_object('k', 'm', 'm', changed.document_id, 'c', changed.company_id)::text);
  ELSIF TG_TABLE_NAME IN ('agenda_items', 'meeting_attendance', 'meeting_minutes') THEN
    PERFORM pg_notify('quorum_live', json_build_object('k', 'm', 'm', changed.meeting_id)::text);
  ELSIF TG_TABLE_NAME = 'documents' THEN
    PERFORM pg_notify('quorum_live', json_build_object('k', 'd', 'd', changed.id, 'c', changed.company_id,
      'a', CASE WHEN TG_OP = 'DELETE' THEN 'removed' ELSE 'added' END)::text);
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER resolution_recusals_notify_live AFTER INSERT OR DELETE ON resolution_recusals
  FOR EACH ROW EXECUTE FUNCTION quorum_notify_live();
