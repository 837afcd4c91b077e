-- Instances tell each other what changed through LISTEN/NOTIFY. The triggers send it, so no write path (a route, a
-- background job, the admin script) can forget to; a notification is delivered when its transaction commits, and
-- never if it rolls back. Payloads carry ids only.
--
-- quorum_auth: what a cached session may depend on changed (the session itself, its user, a membership, a company).
-- quorum_live: what open event streams show changed (votes, resolutions, notifications, meetings, documents).
CREATE FUNCTION quorum_notify_auth() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed record;
BEGIN
  IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
  IF TG_TABLE_NAME = 'sessions' THEN
    PERFORM pg_notify('quorum_auth', json_build_object('s', changed.id, 'u', changed.user_id)::text);
  ELSIF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('quorum_auth', json_build_object('u', changed.id)::text);
  ELSIF TG_TABLE_NAME = 'memberships' THEN
    PERFORM pg_notify('quorum_auth', json_build_object('u', changed.user_id, 'c', changed.company_id)::text);
    IF TG_OP = 'UPDATE' AND OLD.user_id IS DISTINCT FROM NEW.user_id THEN
      PERFORM pg_notify('quorum_auth', json_build_object('u', OLD.user_id, 'c', OLD.company_id)::text);
    END IF;
  ELSIF TG_TABLE_NAME = 'companies' THEN
    PERFORM pg_notify('quorum_auth', json_build_object('c', changed.id)::text);
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- A session's touch (last_used_at, once a minute) changes nothing a cache holds: only these columns notify.
CREATE TRIGGER sessions_notify_auth AFTER DELETE OR UPDATE OF user_id, expires_at, second_factor_at ON sessions
  FOR EACH ROW EXECUTE FUNCTION quorum_notify_auth();--> statement-breakpoint
CREATE TRIGGER users_notify_auth AFTER UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION quorum_notify_auth();--> statement-breakpoint
CREATE TRIGGER memberships_notify_auth AFTER INSERT OR UPDATE OR DELETE ON memberships
  FOR EACH ROW EXECUTE FUNCTION quorum_notify_auth();--> statement-breakpoint
CREATE TRIGGER companies_notify_auth AFTER UPDATE OR DELETE ON companies FOR EACH ROW EXECUTE FUNCTION quorum_notify_auth();--> statement-breakpoint
CREATE FUNCTION quorum_notify_live() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed record;
BEGIN
  IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
  IF TG_TABLE_NAME = 'votes' THEN
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
CREATE TRIGGER votes_notify_live AFTER INSERT OR UPDATE OR DELETE ON votes FOR EACH ROW EXECUTE FUNCTION quorum_notify_live();--> statement-breakpoint
CREATE TRIGGER resolutions_notify_live AFTER INSERT OR UPDATE OF status ON resolutions
  FOR EACH ROW EXECUTE FUNCTION quorum_notify_live();--> statement-breakpoint
CREATE TRIGGER notifications_notify_live AFTER INSERT ON notifications FOR EACH ROW EXECUTE FUNCTION quorum_notify_live();--> statement-breakpoint
CREATE TRIGGER meetings_notify_live AFTER INSERT OR UPDATE OR DELETE ON meetings FOR EACH ROW EXECUTE FUNCTION quorum_notify_live();--> statement-breakpoint
CREATE TRIGGER agenda_items_notify_live AFTER INSERT OR UPDATE OR DELETE ON agenda_items
  FOR EACH ROW EXECUTE FUNCTION quorum_notify_live();--> statement-breakpoint
CREATE TRIGGER meeting_attendance_notify_live AFTER INSERT OR UPDATE OR DELETE ON meeting_attendance
  FOR EACH ROW EXECUTE FUNCTION quorum_notify_live();--> statement-breakpoint
CREATE TRIGGER meeting_minutes_notify_live AFTER INSERT OR UPDATE OR DELETE ON meeting_minutes
  FOR EACH ROW EXECUTE FUNCTION quorum_notify_live();--> statement-breakpoint
-- The library lists files only: a meeting's own document row is announced as a meeting, above.
CREATE TRIGGER documents_added_notify_live AFTER INSERT ON documents
  FOR EACH ROW WHEN (NEW.category <> 'Meeting') EXECUTE FUNCTION quorum_notify_live();--> statement-breakpoint
CREATE TRIGGER documents_removed_notify_live AFTER DELETE ON documents
  FOR EACH ROW WHEN (OLD.category <> 'Meeting') EXECUTE FUNCTION quorum_notify_live();
