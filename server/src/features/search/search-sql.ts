// The statement a page of search results costs: every kind's matches in the companies searched (as each kind's own
// screens show them to the caller), ranked, a page cut after the cursor, snippets for that page only, and on the first
// page the papers that could not be searched. Each language's query is written into it as an expression of constants,
// which the planner folds into one tsquery: it then reads each GIN index with its statistics (a word on a few pages,
// or on most of them), where a query read from a table would leave it guessing, and mostly scanning.
import { sql, type SQL } from "drizzle-orm";
import { can, type Permission } from "../../../../shared/permissions";
import type { CompanyRole } from "../../../../shared/roles";
import { maxUnsearchedListed, searchKinds, searchLanguages, type SearchKind } from "../../../../shared/search";

/** Where a page starts: after this rank, kind (its place in `searchKinds`) and id. */
export interface SearchPosition {
  rank: string;
  kindOrder: number;
  id: number;
}

/** A company searched: the caller's role in it decides what of it they find. */
export interface SearchedCompany {
  id: number;
  role: CompanyRole;
  language: string;
}

export interface SearchStatement {
  /** The words as typed, without the snippet's sentinels. */
  q: string;
  userId: number;
  /** At least one. */
  companies: readonly SearchedCompany[];
  kinds: readonly SearchKind[];
  meetingId?: number;
  /** Calendar dates (UTC), both ends included. */
  from?: string;
  to?: string;
  after?: SearchPosition;
  /** Pages of papers ranked at most, the newest papers' first (`maxPagesRanked`; tests make it small). */
  maxPagesRanked: number;
  /** Rows to read: a page and one more, which tells whether there is a next page. */
  limit: number;
  listUnsearched: boolean;
  /** ts_headline's options, with the sentinels that mark the words found. */
  headlineOptions: string;
  /** Characters removed from every text a snippet is cut from (the sentinels). */
  sentinels: string;
}

/** The companies of one language and the query they are searched with. */
interface LanguageGroup {
  companies: readonly SearchedCompany[];
  config: SQL;
  query: SQL;
  /** The group's candidate pages of papers (a CTE of the statement). */
  pagesFound: SQL;
}

const ids = (companies: readonly SearchedCompany[]) =>
  companies.length === 0
    ? sql`null`
    : sql.join(
        companies.map((company) => sql`${company.id}`),
        sql`, `,
      );
const holding = (companies: readonly SearchedCompany[], permission: Permission) =>
  ids(companies.filter((company) => can(company.role, permission)));
const usable = (query: SQL) => sql`querytree(${query}) not in ('', 'T')`;

/**
 * The query in each language searched: the companies' own, unless it leaves no word to look for (only stop words:
 * "IT", "The Who"), then the unstemmed 'simple' one, which titles are also indexed in. Never both at once: an
 * exclusion ("-word") must hold for every word it names.
 */
function languageGroups(statement: SearchStatement): LanguageGroup[] {
  const byLanguage = new Map<string, SearchedCompany[]>();
  for (const company of statement.companies) byLanguage.set(company.language, [...(byLanguage.get(company.language) ?? []), company]);
  return [...byLanguage].map(([language, companies], index) => {
    // A name of the list (the column's check holds the same), written as a literal: a constant of the statement.
    if (!(searchLanguages as readonly string[]).includes(language)) throw new Error(`unknown search language ${language}`);
    const own = sql.raw(`'${language}'::regconfig`);
    const config = sql`(case when ${usable(sql`websearch_to_tsquery(${own}, ${statement.q})`)} then ${own} else 'simple'::regconfig end)`;
    return { companies, config, query: sql`websearch_to_tsquery(${config}, ${statement.q})`, pagesFound: sql.raw(`pages_found_${index}`) };
  });
}

/** Written in as a constant, so the planner knows how few rows it needs (a parameter's value could be any). */
const pagesRankedLimit = (statement: SearchStatement) => sql.raw(String(Math.trunc(statement.maxPagesRanked)));
/** A kind's place in `searchKinds`, written into the statement (typed integer). */
const kindOrder = (kind: SearchKind) => sql.raw(String(searchKinds.indexOf(kind)));
/**
 * How well a row matches: its words' weights and frequency, less for a long text (normalization 1). Not ts_rank_cd:
 * its proximity measure took twice as long on a word found on most pages, where ranking is most of a search's time.
 */
const rank = (vector: SQL, group: LanguageGroup) => sql`ts_rank(${vector}, ${group.query}, 1)`;
/** What every branch selects after its own columns: the group's query and configuration, for the snippets. */
const groupColumns = (group: LanguageGroup) => sql`${group.config} as config, ${group.query} as query`;
const dayStart = (date: string) => sql`(${date}::date)::timestamp at time zone 'UTC'`;

function within(statement: SearchStatement, at: SQL): SQL[] {
  const filters: SQL[] = [];
  if (statement.from !== undefined) filters.push(sql`${at} >= ${dayStart(statement.from)}`);
  if (statement.to !== undefined) filters.push(sql`${at} < ${dayStart(statement.to)} + interval '1 day'`);
  return filters;
}

const all = (filters: SQL[]) => sql.join(filters, sql` and `);
/** The row matches the group's query, which has something to look for (a query of exclusions alone matches nothing). */
const matches = (vector: SQL, group: LanguageGroup) => sql`${vector} @@ ${group.query} and ${usable(group.query)}`;

/** Papers as the library lists them (documents that are not meetings), in the meeting's agenda when one is named. */
function paperFilters(statement: SearchStatement, companies: readonly SearchedCompany[]): SQL[] {
  const filters = [
    sql`d.company_id in (${ids(companies)})`,
    sql`not exists (select 1 from meetings m where m.document_id = d.id)`,
    ...within(statement, sql`d.created_at`),
  ];
  if (statement.meetingId !== undefined) {
    filters.push(sql`exists (select 1 from agenda_item_documents aid join agenda_items ai on ai.id = aid.item_id
      where aid.document_id = d.id and ai.meeting_id = ${statement.meetingId})`);
  }
  return filters;
}

/**
 * The pages of the latest versions of papers that match, newest paper first, at most `maxPagesRanked`: reading and
 * ranking every page a common word is on costs in proportion to them (most of a 200,000-page record), so past the
 * bound only the newest papers' pages are ranked, and the answer says so.
 */
function pagesFound(statement: SearchStatement, group: LanguageGroup): SQL {
  // The pages that hold every word, which the GIN index answers alone: a phrase's order on the page is checked
  // after the bound, on the pages within it (checking it on every page that holds its words is the cost bounded).
  // Not for a query that excludes something: loosening an exclusion of a phrase would leave out too much.
  const words = sql`(case when position('!' in ${group.query}::text) = 0
    then regexp_replace(${group.query}::text, '<([0-9]+|-)>', '&', 'g')::tsquery else ${group.query} end)`;
  // One more than are ranked: it tells whether there were more.
  // The bound is found on the pages' keys alone (sorting their words too would spill to disk), then the words are
  // read again by key for the pages within it.
  return sql`${group.pagesFound} as materialized (
    select c.document_id, c.version, c.page, v.search_vector @@ ${group.query} as found, ${rank(sql`v.search_vector`, group)} as rank
    from (
      select pt.document_id, pt.version, pt.page
      from document_page_texts pt join documents d on d.id = pt.document_id and d.version = pt.version
      where pt.search_vector @@ ${words} and ${usable(group.query)} and ${all(paperFilters(statement, group.companies))}
      -- The primary key's order, read backwards: a word on most pages stops the read at the bound.
      order by pt.document_id desc, pt.version desc, pt.page desc
      limit ${pagesRankedLimit(statement)} + 1
    ) c
    join document_page_texts v on v.document_id = c.document_id and v.version = c.version and v.page = c.page)`;
}

/** One result per paper: its best page of its latest version or, when only its title or description matches, no page. */
function papers(statement: SearchStatement, group: LanguageGroup): SQL {
  const filters = paperFilters(statement, group.companies);
  return sql`select ${kindOrder("document")} as kind_order, d.id, d.company_id, best.rank, best.page, null::integer as meeting_id,
      d.created_at as at, d.name as title, ${groupColumns(group)}
    from (
      select id, max(rank) as rank, max(page) as page from (
        (select distinct on (f.document_id) f.document_id as id, f.page, f.rank
          from (select * from ${group.pagesFound} order by document_id desc, version desc, page desc limit ${pagesRankedLimit(statement)}) f
          where f.found
          order by f.document_id, f.rank desc, f.page)
        union all
        (select d.id, null::integer, ${rank(sql`d.search_vector`, group)}
          from documents d where ${matches(sql`d.search_vector`, group)} and ${all(filters)})
      ) found group by id
    ) best join documents d on d.id = best.id`;
}

/** A meeting's own rows, seen by every member once it is scheduled (a draft is nobody's to find). */
function meetingFilters(statement: SearchStatement, companies: readonly SearchedCompany[]): SQL[] {
  const filters = [sql`m.company_id in (${ids(companies)})`, sql`m.status <> 'draft'`, ...within(statement, sql`m.starts_at`)];
  if (statement.meetingId !== undefined) filters.push(sql`m.document_id = ${statement.meetingId}`);
  return filters;
}

function meetingsFound(statement: SearchStatement, group: LanguageGroup): SQL {
  return sql`select ${kindOrder("meeting")} as kind_order, m.document_id as id, m.company_id, ${rank(sql`m.search_vector`, group)} as rank,
      null::integer as page, m.document_id as meeting_id, m.starts_at as at, m.title, ${groupColumns(group)}
    from meetings m where ${matches(sql`m.search_vector`, group)} and ${all(meetingFilters(statement, group.companies))}`;
}

function agendaItems(statement: SearchStatement, group: LanguageGroup): SQL {
  return sql`select ${kindOrder("agendaItem")} as kind_order, ai.id, m.company_id, ${rank(sql`ai.search_vector`, group)} as rank,
      null::integer as page, m.document_id as meeting_id, m.starts_at as at, ai.title, ${groupColumns(group)}
    from agenda_items ai join meetings m on m.document_id = ai.meeting_id
    where ${matches(sql`ai.search_vector`, group)} and ${all(meetingFilters(statement, group.companies))}`;
}

/** Draft minutes are read only by those who keep the meeting's record: founders, admins, and its creator (not an observer). */
function minutes(statement: SearchStatement, group: LanguageGroup): SQL {
  const keepsRecord = sql`(m.company_id in (${holding(group.companies, "keepAnyMeetingRecord")})
    or (m.created_by = ${statement.userId} and m.company_id in (${holding(group.companies, "scheduleMeeting")})))`;
  return sql`select ${kindOrder("minutes")} as kind_order, m.document_id as id, m.company_id, ${rank(sql`mm.search_vector`, group)} as rank,
      null::integer as page, m.document_id as meeting_id, m.starts_at as at, m.title, ${groupColumns(group)}
    from meeting_minutes mm join meetings m on m.document_id = mm.meeting_id
    where ${matches(sql`mm.search_vector`, group)} and ${all(meetingFilters(statement, group.companies))}
      and (mm.status <> 'draft' or ${keepsRecord})`;
}

function resolutions(statement: SearchStatement, group: LanguageGroup): SQL {
  const filters = [sql`r.company_id in (${ids(group.companies)})`, ...within(statement, sql`r.created_at`)];
  if (statement.meetingId !== undefined) {
    filters.push(sql`exists (select 1 from agenda_item_resolutions air join agenda_items ai on ai.id = air.item_id
      where air.resolution_id = r.id and ai.meeting_id = ${statement.meetingId})`);
  }
  return sql`select ${kindOrder("resolution")} as kind_order, r.id, r.company_id, ${rank(sql`r.search_vector`, group)} as rank,
      null::integer as page, null::integer as meeting_id, r.created_at as at, r.title, ${groupColumns(group)}
    from resolutions r where ${matches(sql`r.search_vector`, group)} and ${all(filters)}`;
}

function actionItems(statement: SearchStatement, group: LanguageGroup): SQL {
  const filters = [sql`a.company_id in (${ids(group.companies)})`, ...within(statement, sql`a.created_at`)];
  if (statement.meetingId !== undefined) filters.push(sql`a.meeting_id = ${statement.meetingId}`);
  return sql`select ${kindOrder("actionItem")} as kind_order, a.id, a.company_id, ${rank(sql`a.search_vector`, group)} as rank,
      null::integer as page, a.meeting_id, a.created_at as at, a.title, ${groupColumns(group)}
    from action_items a where ${matches(sql`a.search_vector`, group)} and ${all(filters)}`;
}

const branches: Record<SearchKind, (statement: SearchStatement, group: LanguageGroup) => SQL> = {
  document: papers,
  minutes,
  resolution: resolutions,
  agendaItem: agendaItems,
  actionItem: actionItems,
  meeting: meetingsFound,
};

/** The text a result's snippet is cut from, read for the rows of the page only. */
const snippetSource = sql`case p.kind_order
  when ${kindOrder("document")} then coalesce(
    (select pt.text from document_page_texts pt join documents d on d.id = pt.document_id and d.version = pt.version
      where pt.document_id = p.id and pt.page = p.page),
    (select coalesce(nullif(d.description, ''), d.name) from documents d where d.id = p.id))
  when ${kindOrder("minutes")} then (select mm.text from meeting_minutes mm where mm.meeting_id = p.id)
  when ${kindOrder("resolution")} then (select concat_ws(' ', r.title, r.description, r.explanation) from resolutions r where r.id = p.id)
  when ${kindOrder("agendaItem")} then (select concat_ws(' ', ai.title, ai.description) from agenda_items ai where ai.id = p.id)
  when ${kindOrder("meeting")} then (select concat_ws(' · ', m.title, m.location) from meetings m where m.document_id = p.id)
  else p.title end`;

const isoAt = (at: SQL) => sql`to_char(${at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

function afterCursor(after: SearchPosition | undefined): SQL {
  if (!after) return sql``;
  const cursorRank = sql`${after.rank}::real`;
  return sql`where rank < ${cursorRank} or (rank = ${cursorRank} and (kind_order, id) > (${after.kindOrder}, ${after.id}))`;
}

/** Papers searched (as the library shows them, under the same filters) whose latest version has no text to search. */
function unsearchedOf(statement: SearchStatement): SQL {
  if (!statement.listUnsearched || !statement.kinds.includes("document")) return sql`'[]'::json`;
  return sql`(select coalesce(json_agg(json_build_object('documentId', u.id, 'title', u.name, 'status', u.text_status)
      order by u.created_at desc, u.id desc), '[]'::json)
    from (
      select d.id, d.name, dv.text_status, d.created_at
      from document_versions dv join documents d on d.id = dv.document_id and d.version = dv.version
      where dv.text_status <> 'done' and ${all(paperFilters(statement, statement.companies))}
      order by d.created_at desc, d.id desc
      limit ${maxUnsearchedListed}
    ) u)`;
}

/** Whether the meeting named is a scheduled meeting of a company searched (true when none is named). */
function meetingKnown(statement: SearchStatement): SQL {
  if (statement.meetingId === undefined) return sql`true`;
  return sql`exists (select 1 from meetings m
    where m.document_id = ${statement.meetingId} and m.status <> 'draft' and m.company_id in (${ids(statement.companies)}))`;
}

/** Whether a language group found more pages of papers than are ranked. */
function morePagesMatched(statement: SearchStatement, groups: readonly LanguageGroup[]): SQL {
  if (!statement.kinds.includes("document")) return sql`false`;
  return sql`(${sql.join(
    groups.map((group) => sql`(select count(*) from ${group.pagesFound}) > ${pagesRankedLimit(statement)}`),
    sql` or `,
  )})`;
}

/** One row: `results` (the page and one more, best first), `unsearched`, `meeting_known` and `more_pages_matched`. */
export function searchStatement(statement: SearchStatement): SQL {
  const groups = languageGroups(statement);
  const hits = sql.join(
    statement.kinds.flatMap((kind) => groups.map((group) => sql`(${branches[kind](statement, group)})`)),
    sql` union all `,
  );
  const candidates = statement.kinds.includes("document") ? groups.map((group) => sql`${pagesFound(statement, group)}, `) : [];
  const headline = sql`ts_headline(p.config, translate(${snippetSource}, ${statement.sentinels}, ''), p.query, ${statement.headlineOptions})`;
  return sql`with ${sql.join(candidates)}page as materialized (
      select * from (${hits}) hits ${afterCursor(statement.after)}
      order by rank desc, kind_order, id
      limit ${statement.limit}
    )
    select
      (select coalesce(json_agg(json_build_object('kindOrder', p.kind_order, 'id', p.id, 'companyId', p.company_id,
          'rank', p.rank::text, 'page', p.page, 'meetingId', p.meeting_id, 'at', ${isoAt(sql`p.at`)}, 'title', p.title,
          'headline', ${headline})
        order by p.rank desc, p.kind_order, p.id), '[]'::json)
      from page p) as results,
      ${unsearchedOf(statement)} as unsearched,
      ${meetingKnown(statement)} as meeting_known,
      ${morePagesMatched(statement, groups)} as more_pages_matched`;
}
