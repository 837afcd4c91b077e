-- When a decided written resolution's certificate was filed in the library as a PDF. It is filed after the decision
-- commits (the PDF is not made under the resolution's row lock), by whoever comes first: the request that decided it
-- or the sweep; the one that sets this column files it.
ALTER TABLE "resolutions" ADD COLUMN "written_certificate_filed_at" timestamp with time zone;
