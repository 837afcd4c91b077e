-- A paper replaced by a new version is announced to open event streams as the third change of a document (lists
-- showing it read it again); its row is updated in place, and updates were not announced until now.
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
      'a', CASE WHEN TG_OP = 'DELETE' THEN 'removed' WHEN TG_OP = 'UPDATE' THEN 'replaced' ELSE 'added' END)::text);
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- Only a new version: a document's other columns change with it or not at all.
CREATE TRIGGER documents_replaced_notify_live AFTER UPDATE OF version ON documents
  FOR EACH ROW WHEN (OLD.category <> 'Meeting' AND NEW.version <> OLD.version) EXECUTE FUNCTION quorum_notify_live();
