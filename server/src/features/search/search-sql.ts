// The one statement a page of search results costs: every kind's matches in the caller's companies (as each kind's own
// screens show them to the caller), ranked, a page cut after the cursor, snippets for that page only, and on the
// first page the papers that could not be searched.
import { sql, type SQL } from "drizzle-orm";
import { companyRoles } from "../../../../shared/roles";
import { can, type Permission } from "../../../../shared/permissions";
import { maxUnsearchedListed, searchKinds, type SearchKind } from "../../../../shared/search";

/** Where a page starts: after this rank, kind (its place in `searchKinds`) and id. */
export interface SearchPosition {
  rank: string;
  kindOrder: number;
  id: number;
}

export interface SearchStatement {
  /** The words as typed, without the snippet's sentinels. */
  q: string;
  userId: number;
  /** One company (the active one; null: none), or every company the caller belongs to. */
  companies: { only: number | null } | "all";
  /** Companies that require a second factor are searched only from a session that passed one. */
  passedSecondFactor: boolean;
  kinds: readonly SearchKind[];
  meetingId?: number;
  /** Calendar dates (UTC), both ends included. */
  from?: string;
  to?: string;
  after?: SearchPosition;
  /** Rows to read: a page and one more, which tells whether there is a next page. */
  limit: number;
  listUnsearched: boolean;
  /** ts_headline's options, with the sentinels that mark the words found. */
  headlineOptions: string;
  /** Characters removed from every text a snippet is cut from (the sentinels). */
  sentinels: string;
}

const list = (values: readonly string[]) =>
  sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );
const rolesHolding = (permission: Permission) => list(companyRoles.filter((role) => can(role, permission)));

/** The companies searched, with the caller's role in each and the language each is indexed in. */
function scopeOf(statement: SearchStatement): SQL {
  const { companies } = statement;
  const which = companies === "all" ? sql`` : companies.only === null ? sql`and false` : sql`and c.id = ${companies.only}`;
  return sql`select c.id as company_id, c.name as company_name, c.search_language as language, ms.role
    from memberships ms join companies c on c.id = ms.company_id
    where ms.user_id = ${statement.userId} ${which} and (not c.require_second_factor or ${statement.passedSecondFactor})`;
}

/**
 * The query in each language searched: the company's own, unless it leaves no word to look for (only stop words:
 * "IT", "The Who"), then the unstemmed 'simple' one, which titles are also indexed in. Never both at once: an
 * exclusion ("-word") must hold for every word it names. A query with nothing to look for searches nothing.
 */
function searchedOf(q: string): SQL {
  const usable = (query: SQL) => sql`querytree(${query}) not in ('', 'T')`;
  return sql`select s.company_id, s.company_name, s.role, l.config, websearch_to_tsquery(l.config, ${q}) as query
    from scope s join (
      select language, (case when ${usable(sql`websearch_to_tsquery(language::regconfig, ${q})`)} then language else 'simple' end)::regconfig as config
      from (select distinct language from scope) languages
    ) l using (language)
    where ${usable(sql`websearch_to_tsquery(l.config, ${q})`)}`;
}

const dayStart = (date: string) => sql`(${date}::date)::timestamp at time zone 'UTC'`;

/** The date filter on a kind's `at`. */
function within(statement: SearchStatement, at: SQL): SQL[] {
  const filters: SQL[] = [];
  if (statement.from !== undefined) filters.push(sql`${at} >= ${dayStart(statement.from)}`);
  if (statement.to !== undefined) filters.push(sql`${at} < ${dayStart(statement.to)} + interval '1 day'`);
  return filters;
}

const where = (filters: SQL[]) => (filters.length === 0 ? sql`` : sql`where ${sql.join(filters, sql` and `)}`);

/** Papers as the library lists them (documents that are not meetings), in the meeting's agenda when one is named. */
function paperFilters(statement: SearchStatement): SQL[] {
  const filters = [sql`not exists (select 1 from meetings m where m.document_id = d.id)`, ...within(statement, sql`d.created_at`)];
  if (statement.meetingId !== undefined) {
    filters.push(sql`exists (select 1 from agenda_item_documents aid join agenda_items ai on ai.id = aid.item_id
      where aid.document_id = d.id and ai.meeting_id = ${statement.meetingId})`);
  }
  return filters;
}

/** A kind's place in `searchKinds`, written into the statement (a constant the planner sees, and typed integer). */
const kindOrder = (kind: SearchKind) => sql.raw(String(searchKinds.indexOf(kind)));

const rank = (vector: SQL) => sql`ts_rank_cd(${vector}, s.query, 1)`;

/**
 * One result per paper: its best-ranked page of its latest version, or, when only its title or description holds
 * the words, no page.
 */
function papers(statement: SearchStatement): SQL {
  const filters = paperFilters(statement);
  return sql`select ${kindOrder("document")} as kind_order, d.id, d.company_id, s.company_name,
      greatest(p.rank, t.rank) as rank, p.page, null::integer as meeting_id, d.created_at as at, d.name as title, s.config, s.query
    from (
      select distinct on (pt.document_id) pt.document_id as id, pt.page, ${rank(sql`pt.search_vector`)} as rank
      from searched s
      join document_page_texts pt on pt.search_vector @@ s.query
      join documents d on d.id = pt.document_id and d.version = pt.version and d.company_id = s.company_id
      ${where(filters)}
      order by pt.document_id, rank desc, pt.page
    ) p
    full join (
      select d.id, ${rank(sql`d.search_vector`)} as rank
      from searched s join documents d on d.company_id = s.company_id and d.search_vector @@ s.query
      ${where(filters)}
    ) t on t.id = p.id
    join documents d on d.id = coalesce(p.id, t.id)
    join searched s on s.company_id = d.company_id`;
}

/** A meeting's own rows are seen by every member once it is scheduled (a draft is nobody's to find). */
function meetingFilters(statement: SearchStatement): SQL[] {
  const filters = [sql`m.status <> 'draft'`, ...within(statement, sql`m.starts_at`)];
  if (statement.meetingId !== undefined) filters.push(sql`m.document_id = ${statement.meetingId}`);
  return filters;
}

function meetingsMatched(statement: SearchStatement): SQL {
  return sql`select ${kindOrder("meeting")} as kind_order, m.document_id as id, m.company_id, s.company_name,
      ${rank(sql`m.search_vector`)} as rank, null::integer as page, m.document_id as meeting_id, m.starts_at as at, m.title, s.config, s.query
    from searched s join meetings m on m.company_id = s.company_id and m.search_vector @@ s.query
    ${where(meetingFilters(statement))}`;
}

function agendaItems(statement: SearchStatement): SQL {
  return sql`select ${kindOrder("agendaItem")} as kind_order, ai.id, m.company_id, s.company_name,
      ${rank(sql`ai.search_vector`)} as rank, null::integer as page, m.document_id as meeting_id, m.starts_at as at, ai.title, s.config, s.query
    from searched s join agenda_items ai on ai.search_vector @@ s.query
    join meetings m on m.document_id = ai.meeting_id and m.company_id = s.company_id
    ${where(meetingFilters(statement))}`;
}

/** Draft minutes are read only by those who keep the meeting's record: founders, admins, and its creator (not an observer). */
function minutes(statement: SearchStatement): SQL {
  const keepsRecord = sql`(s.role in (${rolesHolding("keepAnyMeetingRecord")})
    or (m.created_by = ${statement.userId} and s.role in (${rolesHolding("scheduleMeeting")})))`;
  return sql`select ${kindOrder("minutes")} as kind_order, m.document_id as id, m.company_id, s.company_name,
      ${rank(sql`mm.search_vector`)} as rank, null::integer as page, m.document_id as meeting_id, m.starts_at as at, m.title, s.config, s.query
    from searched s join meeting_minutes mm on mm.search_vector @@ s.query
    join meetings m on m.document_id = mm.meeting_id and m.company_id = s.company_id
    ${where([...meetingFilters(statement), sql`(mm.status <> 'draft' or ${keepsRecord})`])}`;
}

function resolutions(statement: SearchStatement): SQL {
  const filters = within(statement, sql`r.created_at`);
  if (statement.meetingId !== undefined) {
    filters.push(sql`exists (select 1 from agenda_item_resolutions air join agenda_items ai on ai.id = air.item_id
      where air.resolution_id = r.id and ai.meeting_id = ${statement.meetingId})`);
  }
  return sql`select ${kindOrder("resolution")} as kind_order, r.id, r.company_id, s.company_name,
      ${rank(sql`r.search_vector`)} as rank, null::integer as page, null::integer as meeting_id, r.created_at as at, r.title, s.config, s.query
    from searched s join resolutions r on r.company_id = s.company_id and r.search_vector @@ s.query
    ${where(filters)}`;
}

function actionItems(statement: SearchStatement): SQL {
  const filters = within(statement, sql`a.created_at`);
  if (statement.meetingId !== undefined) filters.push(sql`a.meeting_id = ${statement.meetingId}`);
  return sql`select ${kindOrder("actionItem")} as kind_order, a.id, a.company_id, s.company_name,
      ${rank(sql`a.search_vector`)} as rank, null::integer as page, a.meeting_id, a.created_at as at, a.title, s.config, s.query
    from searched s join action_items a on a.company_id = s.company_id and a.search_vector @@ s.query
    ${where(filters)}`;
}

const branches: Record<SearchKind, (statement: SearchStatement) => SQL> = {
  document: papers,
  minutes,
  resolution: resolutions,
  agendaItem: agendaItems,
  actionItem: actionItems,
  meeting: meetingsMatched,
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

/** Papers in scope (as the library shows them, under the same filters) whose latest version has no text to search. */
function unsearchedOf(statement: SearchStatement): SQL {
  if (!statement.listUnsearched || !statement.kinds.includes("document")) return sql`'[]'::json`;
  return sql`(select coalesce(json_agg(json_build_object('documentId', u.id, 'title', u.name, 'status', u.text_status)
      order by u.created_at desc, u.id desc), '[]'::json)
    from (
      select d.id, d.name, dv.text_status, d.created_at
      from document_versions dv
      join documents d on d.id = dv.document_id and d.version = dv.version
      join scope s on s.company_id = d.company_id
      ${where([sql`dv.text_status <> 'done'`, ...paperFilters(statement)])}
      order by d.created_at desc, d.id desc
      limit ${maxUnsearchedListed}
    ) u)`;
}

/** Whether the meeting named is a scheduled meeting of a company searched (true when none is named). */
function meetingKnown(statement: SearchStatement): SQL {
  if (statement.meetingId === undefined) return sql`true`;
  return sql`exists (select 1 from meetings m join scope s on s.company_id = m.company_id
    where m.document_id = ${statement.meetingId} and m.status <> 'draft')`;
}

/** One row: `results` (the page and one more, best first), `unsearched` and `meeting_known`. */
export function searchStatement(statement: SearchStatement): SQL {
  const hits = sql.join(
    statement.kinds.map((kind) => sql`(${branches[kind](statement)})`),
    sql` union all `,
  );
  const headline = sql`ts_headline(p.config, translate(${snippetSource}, ${statement.sentinels}, ''), p.query, ${statement.headlineOptions})`;
  return sql`with scope as materialized (${scopeOf(statement)}),
    searched as materialized (${searchedOf(statement.q)}),
    hits as (${hits}),
    page as materialized (
      select * from hits ${afterCursor(statement.after)}
      order by rank desc, kind_order, id
      limit ${statement.limit}
    )
    select
      (select coalesce(json_agg(json_build_object('kindOrder', p.kind_order, 'id', p.id, 'companyId', p.company_id,
          'companyName', p.company_name, 'rank', p.rank::text, 'page', p.page, 'meetingId', p.meeting_id,
          'at', ${isoAt(sql`p.at`)}, 'title', p.title, 'headline', ${headline})
        order by p.rank desc, p.kind_order, p.id), '[]'::json)
      from page p) as results,
      ${unsearchedOf(statement)} as unsearched,
      ${meetingKnown(statement)} as meeting_known`;
}
