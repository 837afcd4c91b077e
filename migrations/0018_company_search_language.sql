-- The text search configuration a company's record is indexed and searched in (a Postgres configuration name).
ALTER TABLE "companies" ADD COLUMN "search_language" text NOT NULL DEFAULT 'english'
  CHECK ("search_language" IN ('english', 'danish', 'dutch', 'finnish', 'french', 'german', 'italian', 'norwegian', 'portuguese', 'spanish', 'swedish', 'simple'));
