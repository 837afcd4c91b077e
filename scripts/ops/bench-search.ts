// The search part of `npm run bench`: in a database of its own (created on the same Postgres and dropped after), one
// company with 10,000 papers of 20 pages each (200,000 pages of 250 words, drawn from a 30,000-word vocabulary by
// Zipf's law, so a few words are on nearly every page and most on few), plus a board's meetings, agenda items,
// minutes, resolutions and action items; then a fresh instance of the built server on it, and searches one after the
// other through HTTP as a director makes them: one word (any word of the vocabulary alike), one word drawn as the text
// uses them (so often one on most pages), two words of one page (any of its words alike), and a phrase of two words
// standing together on a page. p50 and p95 of each, the GIN indexes' and the page texts' sizes, and the plan of the
// slowest search. BENCH_SEARCH_DATABASE names a database to seed once and keep, to measure again without seeding.
//
// The CI smoke run (BENCH_SECONDS under 10) seeds 100 papers of 4 pages and asks 4 searches of each kind: it proves the
// part runs in a few seconds; its figures mean nothing.
import { insertBoard } from "./bench-seed";
import { sql } from "drizzle-orm";
import pg from "pg";
import { maxPagesRanked, searchKinds, searchPageSize } from "../../shared/search";
import { systemClock } from "../../server/src/clock";
import { openDatabase, type Database } from "../../server/src/db/client";
import { runMigrations } from "../../server/src/db/migrate";
import { createSession } from "../../server/src/http/session";
import { defaultLimits } from "../../server/src/limits";
import { searchStatement } from "../../server/src/features/search/search-sql";

/** What `--only` matches to run this part. */
export const searchPartName = "search";
const targetP95Ms = 150;
const vocabularySize = 30_000;
const wordsPerPage = 250;

interface Scale {
  papers: number;
  pages: number;
  meetings: number;
  resolutions: number;
  queriesPerKind: number;
}
const fullScale: Scale = { papers: 10_000, pages: 20, meetings: 300, resolutions: 1_000, queriesPerKind: 60 };
const smokeScale: Scale = { papers: 100, pages: 4, meetings: 5, resolutions: 20, queriesPerKind: 4 };

export interface SearchServer {
  base: string;
  stop: () => Promise<void>;
}

/** The vocabulary: made-up words of three or four syllables, none a stop word, in a fixed order (rank 1 first). */
function vocabulary(): string[] {
  const consonants = "bdfgklmnprstvz";
  const vowels = "aeiou";
  const syllables = [...consonants].flatMap((consonant) => [...vowels].map((vowel) => consonant + vowel));
  const words: string[] = [];
  // A stride coprime with the number of three-syllable words spreads the ranks over every beginning.
  const space = syllables.length ** 3;
  for (let i = 0; words.length < vocabularySize; i += 1) {
    let n = (i * 7919) % space;
    let word = "";
    for (let s = 0; s < 3; s += 1) {
      word += syllables[n % syllables.length];
      n = Math.floor(n / syllables.length);
    }
    words.push(i % 4 === 0 ? `${word}${syllables[i % syllables.length]}` : word);
  }
  return words;
}

/**
 * `bench_words(n)`: n words drawn by Zipf's law, rank r about as often as 1/r (the rank's logarithm uniform). Volatile,
 * so each row of a select draws its own; each word by its key (a join would hash the whole vocabulary on every call).
 */
const wordsFunction = sql.raw(`create function bench_words(n integer) returns text language sql volatile as $$
  select string_agg((select w.word from bench_search_words w where w.rank = r.pick), ' ')
  from (select least(${vocabularySize}, floor(exp(random() * ln(${vocabularySize + 1}))))::int as pick from generate_series(1, n)) r $$`);

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const result = await work();
  console.log(`  search: ${label} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

/** A board's other searchable rows: meetings with six agenda items, minutes and three action items each, and resolutions. */
async function seedRecord(db: Database, scale: Scale, companyId: number, founderId: number): Promise<void> {
  const statements = {
    meetings: sql`with made as (
        insert into documents (company_id, name, file_type, category, uploaded_by, created_at)
        select ${companyId}, 'Meeting ' || n, 'application/json', 'Meeting', ${founderId}, now() - n * interval '12 days'
        from generate_series(1, ${scale.meetings}) n returning id, created_at)
      insert into meetings (document_id, company_id, title, starts_at, ends_at, location, status, created_by)
      select id, ${companyId}, initcap(bench_words(3)), created_at, created_at + interval '2 hours', 'Boardroom', 'confirmed', ${founderId}
      from made`,
    "agenda items": sql`insert into agenda_items (meeting_id, position, title, duration_minutes, description)
      select m.document_id, p, initcap(bench_words(4)), 20, bench_words(40)
      from meetings m cross join generate_series(0, 5) p where m.company_id = ${companyId}`,
    minutes: sql`insert into meeting_minutes (meeting_id, status, text)
      select document_id, 'approved', bench_words(600) from meetings where company_id = ${companyId}`,
    resolutions: sql`insert into resolutions (company_id, title, description, type, status, deadline, created_by, explanation)
      select ${companyId}, initcap(bench_words(5)), bench_words(80), 'Ordinary', 'approved', now(), ${founderId}, bench_words(10)
      from generate_series(1, ${scale.resolutions})`,
    "action items": sql`insert into action_items (company_id, meeting_id, title, owner_id, due_date)
      select ${companyId}, m.document_id, initcap(bench_words(6)), ${founderId}, current_date
      from meetings m cross join generate_series(1, 3) where m.company_id = ${companyId}`,
  };
  for (const [label, statement] of Object.entries(statements)) await timed(label, () => db.execute(statement));
}

interface Seeded {
  token: string;
  userId: number;
  companyId: number;
}

/** Seeds the company; answers its founder's session token. */
async function seed(db: Database, scale: Scale): Promise<Seeded> {
  const { companyId, people } = await insertBoard(db, {
    name: "Search Holdings",
    stage: "growth",
    handle: "search",
    firstName: "Director",
    lastName: "Search",
    people: 6,
    roleOf: (i) => (i === 0 ? "founder" : "member"),
  });
  const founderId = people[0]!.id;
  await db.execute(sql`create table bench_search_words (rank integer primary key, word text not null)`);
  // One JSON parameter: drizzle would send an array as one parameter per word.
  await db.execute(sql`insert into bench_search_words (rank, word)
    select rank, word from json_array_elements_text(${JSON.stringify(vocabulary())}::json) with ordinality as t(word, rank)`);
  await db.execute(wordsFunction);
  await db.execute(sql`set maintenance_work_mem = '512MB'`);

  await timed(`${scale.papers.toLocaleString("en")} papers and their versions`, async () => {
    await db.execute(sql`insert into documents (company_id, name, file_type, file_size, category, description, uploaded_by, created_at, pages)
      select ${companyId}, initcap(bench_words(3)) || '.pdf', 'application/pdf', 250000, 'Financial', bench_words(12), ${founderId},
        now() - n * interval '1 hour', ${scale.pages}
      from generate_series(1, ${scale.papers}) n`);
    // One paper in a hundred is a scan: no text, listed as not searched.
    await db.execute(sql`insert into document_versions (document_id, version, file_type, file_size, pages, uploaded_by, uploaded_at, text_status)
      select id, 1, file_type, file_size, pages, uploaded_by, created_at, case when id % 100 = 0 then 'none' else 'done' end
      from documents where company_id = ${companyId}`);
  });
  // The index is built once after the load (as a REINDEX would leave it), not grown row by row.
  await db.execute(sql`drop index document_page_texts_search_idx`);
  await timed(`${(scale.papers * scale.pages).toLocaleString("en")} pages of text`, () =>
    db.execute(sql`insert into document_page_texts (document_id, version, page, text)
      select d.id, 1, p, bench_words(${wordsPerPage})
      from documents d cross join generate_series(1, ${scale.pages}) p
      where d.company_id = ${companyId} and d.id % 100 <> 0`),
  );
  await timed("the pages' GIN index", () =>
    db.execute(sql`create index document_page_texts_search_idx on document_page_texts using gin (search_vector) with (fastupdate = off)`),
  );
  await seedRecord(db, scale, companyId, founderId);
  // As autovacuum leaves a database in service: planner statistics, and the visibility map of the new rows.
  await timed("VACUUM ANALYZE", () => db.execute(sql`vacuum analyze`));
  const token = await createSession(db, systemClock, founderId, "bench", { maxPerUser: defaultLimits.sessionsPerUser });
  return { token, userId: founderId, companyId };
}

/** The company of a kept database, seeded by an earlier run, with a new session of its founder. */
async function seededBefore(db: Database): Promise<Seeded | undefined> {
  const [row] = await rowsOf<{ user_id: number; company_id: number }>(
    db.execute(sql`select m.user_id, m.company_id from memberships m join companies c on c.id = m.company_id
      where c.name = 'Search Holdings' and m.role = 'founder' limit 1`),
  );
  if (!row) return undefined;
  const token = await createSession(db, systemClock, row.user_id, "bench", { maxPerUser: defaultLimits.sessionsPerUser });
  return { token, userId: row.user_id, companyId: row.company_id };
}

type Rows<T> = { rows: T[] };
const rowsOf = async <T>(result: Promise<unknown>) => ((await result) as Rows<T>).rows;

/** The searches of each kind, drawn from the seeded text. */
async function searches(db: Database, count: number): Promise<Record<string, string[]>> {
  const words = vocabulary();
  const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
  // A 1% sample of the table's blocks reads little of 200,000 pages; of the smoke run's 400 it can draw none, and then
  // the pages are drawn from all (few enough to sort).
  const sampled = await rowsOf<{ text: string }>(
    db.execute(sql`select text from document_page_texts tablesample system (1) limit ${count * 2}`),
  );
  const pages =
    sampled.length > 0
      ? sampled
      : await rowsOf<{ text: string }>(db.execute(sql`select text from document_page_texts order by random() limit ${count * 2}`));
  const wordsOf = (text: string) => text.split(" ");
  const common = await rowsOf<{ word: string }>(db.execute(sql`select bench_words(${count}) as word`));
  return {
    "one word (any word of the vocabulary)": Array.from({ length: count }, () => pick(words)),
    "one word, as often as the text has it": common[0]!.word.split(" "),
    // Each of the page's words alike, however often the page has it: the words a reader would remember.
    "two words of one page": Array.from({ length: count }, () => {
      const page = [...new Set(wordsOf(pick(pages).text))];
      return `${pick(page)} ${pick(page)}`;
    }),
    "a phrase of two words": Array.from({ length: count }, () => {
      const page = wordsOf(pick(pages).text);
      const at = Math.floor(Math.random() * (page.length - 1));
      return `"${page[at]} ${page[at + 1]}"`;
    }),
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function ask(server: SearchServer, token: string, q: string): Promise<{ ms: number; status: number; results: number }> {
  const started = performance.now();
  const response = await fetch(`${server.base}/api/search?${new URLSearchParams({ q })}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await response.json()) as { results?: unknown[] };
  return { ms: performance.now() - started, status: response.status, results: body.results?.length ?? 0 };
}

/** The statement the service runs for `q` as the founder, explained (for the slowest search). */
async function explain(db: Database, seeded: Seeded, q: string): Promise<string[]> {
  const statement = searchStatement({
    q,
    userId: seeded.userId,
    companies: [{ id: seeded.companyId, role: "founder", language: "english" }],
    kinds: searchKinds,
    maxPagesRanked,
    limit: searchPageSize + 1,
    listUnsearched: true,
    headlineOptions: "StartSel=<, StopSel=>",
    sentinels: "",
  });
  const plan = await rowsOf<Record<string, string>>(db.execute(sql`explain (analyze, buffers) ${statement}`));
  return plan.map((row) => Object.values(row)[0]!);
}

async function sizes(db: Database): Promise<string> {
  const rows = await rowsOf<{ name: string; size: string }>(
    db.execute(sql`select c.relname as name, pg_size_pretty(pg_relation_size(c.oid)) as size
      from pg_class c where c.relname like '%\_search\_idx' or c.relname = 'document_page_texts' order by c.relname`),
  );
  const [total] = await rowsOf<{ size: string }>(
    db.execute(sql`select pg_size_pretty(pg_total_relation_size('document_page_texts')) as size`),
  );
  return `${rows.map((row) => `${row.name} ${row.size}`).join(", ")}; document_page_texts with its TOAST and indexes ${total!.size}`;
}

/**
 * Creates the part's database beside `databaseUrl`'s, seeds it, starts a server on it with `start`, measures, and
 * drops the database. Answers the lines for the results and whether every p95 is within the target.
 */
export async function measureSearch(
  start: (databaseUrl: string) => Promise<SearchServer>,
  databaseUrl: string,
  smoke: boolean,
): Promise<{ lines: string[]; within: boolean }> {
  const scale = smoke ? smokeScale : fullScale;
  const admin = new URL(databaseUrl);
  admin.pathname = "/postgres";
  // BENCH_SEARCH_DATABASE names a database to seed once and keep, for measuring again without seeding again.
  const kept = process.env.BENCH_SEARCH_DATABASE;
  const name = kept ?? `quorum_bench_search_${Date.now()}_${process.pid}`;
  const adminClient = new pg.Client({ connectionString: admin.toString() });
  await adminClient.connect();
  const exists = (await adminClient.query("select 1 from pg_database where datname = $1", [name])).rowCount === 1;
  if (!exists) await adminClient.query(`create database ${name}`);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), dataDir: "memory://" });
  let server: SearchServer | undefined;
  try {
    await runMigrations(handle);
    const seeded = (await seededBefore(handle.db)) ?? (await seed(handle.db, scale));
    const { token } = seeded;
    server = await start(url.toString());
    const kinds = await searches(handle.db, scale.queriesPerKind);
    // Warm: the server's code, its pool's connections and the index pages a first search reads.
    for (const q of kinds["one word (any word of the vocabulary)"]!.slice(0, 5)) await ask(server, token, q);
    const lines: string[] = [];
    let within = true;
    let slowest = { ms: 0, q: "" };
    for (const [kind, queries] of Object.entries(kinds)) {
      const times: number[] = [];
      let found = 0;
      let ended = 0;
      for (const q of queries) {
        const answer = await ask(server, token, q);
        // A search past the server's time is answered 503: counted, and its time is a time like any other.
        if (answer.status === 503) ended += 1;
        else if (answer.status !== 200) throw new Error(`search: "${q}" answered ${answer.status}`);
        times.push(answer.ms);
        found += answer.results > 0 ? 1 : 0;
        if (answer.ms > slowest.ms) slowest = { ms: answer.ms, q };
      }
      times.sort((a, b) => a - b);
      const p95 = percentile(times, 95);
      within &&= p95 < targetP95Ms;
      lines.push(
        `| ${kind} | ${queries.length} | ${found} | ${ended} | ${percentile(times, 50).toFixed(0)} | ${p95.toFixed(0)} | ${times.at(-1)!.toFixed(0)} |`,
      );
      console.log(`  search: ${kind}: p50 ${percentile(times, 50).toFixed(0)} ms, p95 ${p95.toFixed(0)} ms`);
    }
    const sizeLine = await sizes(handle.db);
    if (!smoke)
      console.log(`  search: the slowest, ${JSON.stringify(slowest.q)}:\n${(await explain(handle.db, seeded, slowest.q)).join("\n")}`);
    return {
      within,
      lines: [
        `Search (${scale.papers.toLocaleString("en")} papers × ${scale.pages} pages of ${wordsPerPage} words, ${vocabularySize.toLocaleString("en")}-word Zipf vocabulary; target p95 < ${targetP95Ms} ms):`,
        "",
        "| searches | asked | with results | ended at the time limit | p50 ms | p95 ms | max ms |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        ...lines,
        "",
        `Sizes: ${sizeLine}.`,
      ],
    };
  } finally {
    await server?.stop();
    await handle.close();
    if (kept) console.log(`  search: kept the database ${name}`);
    else await adminClient.query(`drop database if exists ${name} with (force)`);
    await adminClient.end();
  }
}
