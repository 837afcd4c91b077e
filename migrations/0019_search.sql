-- Full-text search of a board's record. Each searchable row carries its words as a `search_vector`, kept by the
-- database itself (a BEFORE trigger on every write, whatever the path: the app, a script, this back-fill) in its
-- company's text search configuration, with a GIN index. Titles weigh 'A' over bodies ('B'–'C'), and titles are also
-- kept unstemmed ('simple'): a search made only of a language's stop words ("IT", "The Who") still finds them.

-- The configuration a company's record is indexed in (english for a row whose company cannot be found).
CREATE FUNCTION quorum_search_config(company integer) RETURNS regconfig LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT "search_language" FROM "companies" WHERE "id" = company), 'english')::regconfig
$$;--> statement-breakpoint
CREATE FUNCTION quorum_search_title(config regconfig, title text) RETURNS tsvector LANGUAGE sql IMMUTABLE AS $$
  SELECT setweight(to_tsvector(config, coalesce(title, '')), 'A') || setweight(to_tsvector('simple'::regconfig, coalesce(title, '')), 'A')
$$;--> statement-breakpoint
CREATE FUNCTION quorum_search_body(config regconfig, body text, weight "char") RETURNS tsvector LANGUAGE sql IMMUTABLE AS $$
  SELECT setweight(to_tsvector(config, coalesce(body, '')), weight)
$$;--> statement-breakpoint
-- Whatever `search_vector` a write gives is replaced: setting it to null is how a row is indexed again.
CREATE FUNCTION quorum_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  config regconfig;
BEGIN
  IF TG_TABLE_NAME = 'documents' THEN
    config := quorum_search_config(NEW.company_id);
    NEW.search_vector := quorum_search_title(config, NEW.name) || quorum_search_body(config, NEW.description, 'B');
  ELSIF TG_TABLE_NAME = 'document_page_texts' THEN
    config := quorum_search_config((SELECT "company_id" FROM "documents" WHERE "id" = NEW.document_id));
    NEW.search_vector := quorum_search_body(config, NEW.text, 'B');
  ELSIF TG_TABLE_NAME = 'meetings' THEN
    config := quorum_search_config(NEW.company_id);
    NEW.search_vector := quorum_search_title(config, NEW.title) || quorum_search_body(config, NEW.location, 'C');
  ELSIF TG_TABLE_NAME = 'agenda_items' THEN
    config := quorum_search_config((SELECT "company_id" FROM "meetings" WHERE "document_id" = NEW.meeting_id));
    NEW.search_vector := quorum_search_title(config, NEW.title) || quorum_search_body(config, NEW.description, 'B');
  ELSIF TG_TABLE_NAME = 'meeting_minutes' THEN
    config := quorum_search_config((SELECT "company_id" FROM "meetings" WHERE "document_id" = NEW.meeting_id));
    NEW.search_vector := quorum_search_body(config, NEW.text, 'B');
  ELSIF TG_TABLE_NAME = 'resolutions' THEN
    config := quorum_search_config(NEW.company_id);
    NEW.search_vector := quorum_search_title(config, NEW.title) || quorum_search_body(config, NEW.description, 'B')
      || quorum_search_body(config, NEW.explanation, 'C');
  ELSIF TG_TABLE_NAME = 'action_items' THEN
    config := quorum_search_config(NEW.company_id);
    NEW.search_vector := quorum_search_title(config, NEW.title);
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "search_vector" tsvector;--> statement-breakpoint
ALTER TABLE "document_page_texts" ADD COLUMN "search_vector" tsvector;--> statement-breakpoint
ALTER TABLE "meetings" ADD COLUMN "search_vector" tsvector;--> statement-breakpoint
ALTER TABLE "agenda_items" ADD COLUMN "search_vector" tsvector;--> statement-breakpoint
ALTER TABLE "meeting_minutes" ADD COLUMN "search_vector" tsvector;--> statement-breakpoint
ALTER TABLE "resolutions" ADD COLUMN "search_vector" tsvector;--> statement-breakpoint
ALTER TABLE "action_items" ADD COLUMN "search_vector" tsvector;--> statement-breakpoint
-- A body's vector is read for every row a search finds (to rank it), its text only for a snippet: the vector is kept in
-- the row (compressed if it must be) and the text is the one moved out to TOAST. Out of line, ranking a word found on
-- 40,000 pages fetched each vector from TOAST and took twice as long.
ALTER TABLE "document_page_texts" ALTER COLUMN "search_vector" SET STORAGE MAIN;--> statement-breakpoint
ALTER TABLE "meeting_minutes" ALTER COLUMN "search_vector" SET STORAGE MAIN;--> statement-breakpoint
ALTER TABLE "resolutions" ALTER COLUMN "search_vector" SET STORAGE MAIN;--> statement-breakpoint
ALTER TABLE "agenda_items" ALTER COLUMN "search_vector" SET STORAGE MAIN;--> statement-breakpoint
-- Only a change of the indexed columns (or a reindex, which sets the vector to null) computes the vector again.
CREATE TRIGGER documents_search_vector BEFORE INSERT OR UPDATE OF name, description, search_vector ON documents
  FOR EACH ROW EXECUTE FUNCTION quorum_search_vector();--> statement-breakpoint
CREATE TRIGGER document_page_texts_search_vector BEFORE INSERT OR UPDATE OF text, search_vector ON document_page_texts
  FOR EACH ROW EXECUTE FUNCTION quorum_search_vector();--> statement-breakpoint
CREATE TRIGGER meetings_search_vector BEFORE INSERT OR UPDATE OF title, location, search_vector ON meetings
  FOR EACH ROW EXECUTE FUNCTION quorum_search_vector();--> statement-breakpoint
CREATE TRIGGER agenda_items_search_vector BEFORE INSERT OR UPDATE OF title, description, search_vector ON agenda_items
  FOR EACH ROW EXECUTE FUNCTION quorum_search_vector();--> statement-breakpoint
CREATE TRIGGER meeting_minutes_search_vector BEFORE INSERT OR UPDATE OF text, search_vector ON meeting_minutes
  FOR EACH ROW EXECUTE FUNCTION quorum_search_vector();--> statement-breakpoint
CREATE TRIGGER resolutions_search_vector BEFORE INSERT OR UPDATE OF title, description, explanation, search_vector ON resolutions
  FOR EACH ROW EXECUTE FUNCTION quorum_search_vector();--> statement-breakpoint
CREATE TRIGGER action_items_search_vector BEFORE INSERT OR UPDATE OF title, search_vector ON action_items
  FOR EACH ROW EXECUTE FUNCTION quorum_search_vector();--> statement-breakpoint
-- A company that changes its language has its whole record indexed again, in the transaction that changes it.
CREATE FUNCTION quorum_search_reindex_company() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "documents" SET "search_vector" = NULL WHERE "company_id" = NEW.id;
  UPDATE "document_page_texts" SET "search_vector" = NULL
    WHERE "document_id" IN (SELECT "id" FROM "documents" WHERE "company_id" = NEW.id);
  UPDATE "meetings" SET "search_vector" = NULL WHERE "company_id" = NEW.id;
  UPDATE "agenda_items" SET "search_vector" = NULL
    WHERE "meeting_id" IN (SELECT "document_id" FROM "meetings" WHERE "company_id" = NEW.id);
  UPDATE "meeting_minutes" SET "search_vector" = NULL
    WHERE "meeting_id" IN (SELECT "document_id" FROM "meetings" WHERE "company_id" = NEW.id);
  UPDATE "resolutions" SET "search_vector" = NULL WHERE "company_id" = NEW.id;
  UPDATE "action_items" SET "search_vector" = NULL WHERE "company_id" = NEW.id;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER companies_search_language AFTER UPDATE OF search_language ON companies
  FOR EACH ROW WHEN (OLD.search_language IS DISTINCT FROM NEW.search_language) EXECUTE FUNCTION quorum_search_reindex_company();--> statement-breakpoint
-- The record written before search: every row indexed now (papers whose text was never read get theirs from the
-- text sweep, and are indexed as it is written).
UPDATE "documents" SET "search_vector" = NULL;--> statement-breakpoint
UPDATE "document_page_texts" SET "search_vector" = NULL;--> statement-breakpoint
UPDATE "meetings" SET "search_vector" = NULL;--> statement-breakpoint
UPDATE "agenda_items" SET "search_vector" = NULL;--> statement-breakpoint
UPDATE "meeting_minutes" SET "search_vector" = NULL;--> statement-breakpoint
UPDATE "resolutions" SET "search_vector" = NULL;--> statement-breakpoint
UPDATE "action_items" SET "search_vector" = NULL;--> statement-breakpoint
-- Without fastupdate: a write indexes its words at once. With it, new rows wait in a pending list that every search
-- reads through until vacuum empties it, and the planner, costing that list, chose scanning the table over the index.
CREATE INDEX "documents_search_idx" ON "documents" USING gin ("search_vector") WITH (fastupdate = off);--> statement-breakpoint
CREATE INDEX "document_page_texts_search_idx" ON "document_page_texts" USING gin ("search_vector") WITH (fastupdate = off);--> statement-breakpoint
CREATE INDEX "meetings_search_idx" ON "meetings" USING gin ("search_vector") WITH (fastupdate = off);--> statement-breakpoint
CREATE INDEX "agenda_items_search_idx" ON "agenda_items" USING gin ("search_vector") WITH (fastupdate = off);--> statement-breakpoint
CREATE INDEX "meeting_minutes_search_idx" ON "meeting_minutes" USING gin ("search_vector") WITH (fastupdate = off);--> statement-breakpoint
CREATE INDEX "resolutions_search_idx" ON "resolutions" USING gin ("search_vector") WITH (fastupdate = off);--> statement-breakpoint
CREATE INDEX "action_items_search_idx" ON "action_items" USING gin ("search_vector") WITH (fastupdate = off);--> statement-breakpoint
-- The papers a search names as not searched: the few whose latest text is not done.
CREATE INDEX "document_versions_unsearched_idx" ON "document_versions" USING btree ("document_id") WHERE "text_status" <> 'done';
