// `GET /api/search`: the companies the caller searches, then one statement a page over their record (search-sql.ts).
import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import {
  emptySearchMessage,
  maxPagesRanked,
  searchKinds,
  searchPageSize,
  type searchQuerySchema,
  type SearchPage,
  type SearchResult,
  type UnsearchedReason,
} from "../../../../shared/search";
import type { ServiceDeps } from "../../app-deps";
import type { Queryable } from "../../db/client";
import { companies, memberships } from "../../db/schema";
import { databaseFailureOf } from "../../database-failure";
import { badRequest, HttpError } from "../../http/errors";
import { escapeHtml } from "../../http/escape-html";
import type { AuthContext } from "../../http/request-context";
import { countAgainstLimit } from "../../http/rate-limit";
import { rateRule } from "../../limits";
import { readCursor, writeCursor } from "./search-cursor";
import { searchStatement, type SearchedCompany, type SearchPosition } from "./search-sql";

type SearchDeps = ServiceDeps<"db" | "clock" | "appSecret" | "limits">;
type SearchInput = z.output<typeof searchQuerySchema>;

export const fromAfterToMessage = "From must be on or before to";
export const unknownMeetingMessage = "That meeting is not one of the boards searched";
export const searchTooLongTakenMessage = "The search took too long: add a word, or narrow it by kind, meeting or dates";

/**
 * A search that runs longer is ended by the database: the caller is told to narrow it, and nothing else waits behind
 * it. The pages of papers ranked are bounded too (see search-sql.ts). Tests lower both.
 */
export const searchLimits = { timeoutMs: 3_000, pagesRanked: maxPagesRanked };

// Private-use characters mark the words found in a snippet; taken out of every text first, so only ts_headline's are left.
const startMark = "\uE000";
const stopMark = "\uE001";
const sentinels = `${startMark}${stopMark}`;
const headlineOptions = `StartSel=${startMark}, StopSel=${stopMark}, MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "`;

/** HTML-escaped text in which only <mark> and </mark> are markup, on one line. */
export function snippetHtml(headline: string): string {
  return escapeHtml(headline.replace(/\s+/g, " ").trim()).replaceAll(startMark, "<mark>").replaceAll(stopMark, "</mark>");
}

const unsearchedReasons: Record<string, UnsearchedReason> = { none: "scanned", pending: "pending", failed: "failed" };

interface ResultRow {
  kindOrder: number;
  id: number;
  companyId: number;
  rank: string;
  page: number | null;
  meetingId: number | null;
  at: string;
  title: string;
  headline: string | null;
}

interface StatementRow {
  results: ResultRow[] | string;
  unsearched: { documentId: number; title: string; status: string }[] | string;
  meeting_known: boolean;
  more_pages_matched: boolean;
}

/** json columns: parsed by both drivers, but read either way. */
const parsed = <T>(value: T | string): T => (typeof value === "string" ? (JSON.parse(value) as T) : value);

function toResult(row: ResultRow, companyNames: Map<number, string>): SearchResult {
  const kind = searchKinds[row.kindOrder]!;
  return {
    kind,
    id: row.id,
    companyId: row.companyId,
    companyName: companyNames.get(row.companyId) ?? "",
    title: row.title,
    snippet: snippetHtml(row.headline ?? ""),
    ...(kind === "document" ? { page: row.page } : {}),
    meetingId: row.meetingId,
    at: row.at,
  };
}

/** What a cursor is bound to: the caller and the search, as given (another search's cursor is refused). */
function searchKey(userId: number, input: SearchInput): string {
  const { q, scope, kind, meetingId, from, to } = input;
  return JSON.stringify([userId, q, scope ?? "company", kind ?? null, meetingId ?? null, from ?? null, to ?? null]);
}

type CompanySearched = SearchedCompany & { name: string };

/**
 * The companies searched, with the caller's role in each, its name and its language: the active one (none: none),
 * or all of the caller's; never one that requires a second factor the session did not pass.
 */
function companiesSearched(db: Queryable, auth: AuthContext, scope: SearchInput["scope"]): Promise<CompanySearched[]> {
  const active = auth.user.activeCompanyId;
  if (scope !== "all" && active === null) return Promise.resolve([]);
  return db
    .select({ id: companies.id, name: companies.name, language: companies.searchLanguage, role: memberships.role })
    .from(memberships)
    .innerJoin(companies, eq(companies.id, memberships.companyId))
    .where(
      and(
        eq(memberships.userId, auth.user.id),
        scope === "all" || active === null ? undefined : eq(companies.id, active),
        auth.secondFactorAt === null ? eq(companies.requireSecondFactor, false) : undefined,
      ),
    );
}

/**
 * The companies searched, then the page: two statements in one transaction, under the search's time limit. The
 * companies come first so that each language's query is a constant of the page's statement (see search-sql.ts).
 * The planner's default cost of a random read is a spinning disk's; with it, a word on an eighth of a large record
 * was read on every page it is on (through the word index) rather than along the key from the newest paper until
 * the bound of pages ranked: three times slower on pages in memory or on SSD, where a board's record lives.
 */
async function runSearch(
  deps: SearchDeps,
  auth: AuthContext,
  input: SearchInput,
  build: (searched: CompanySearched[]) => ReturnType<typeof searchStatement>,
): Promise<{ searched: CompanySearched[]; row: StatementRow | null }> {
  try {
    return await deps.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('statement_timeout', ${String(searchLimits.timeoutMs)}, true),
        set_config('random_page_cost', '1.1', true)`);
      const searched = await companiesSearched(tx, auth, input.scope);
      if (searched.length === 0) return { searched, row: null };
      const result = (await tx.execute(build(searched))) as unknown as { rows: StatementRow[] };
      return { searched, row: result.rows[0]! };
    });
  } catch (error) {
    // 57014: the statement timeout ended it.
    if (databaseFailureOf(error)?.sqlState === "57014") throw new HttpError(503, searchTooLongTakenMessage);
    throw error;
  }
}

/**
 * A page of results, best first, in the caller's active company (scope=company; none: no results) or every company
 * they belong to (scope=all), each kind as its own screens would show it to them; on the first page, the papers in
 * scope whose text could not be searched. Counted against the caller's searches a minute (429 past them).
 */
export async function search(deps: SearchDeps, auth: AuthContext, input: SearchInput): Promise<SearchPage> {
  if (input.from !== undefined && input.to !== undefined && input.from > input.to) throw badRequest(fromAfterToMessage);
  const q = input.q.replaceAll(startMark, "").replaceAll(stopMark, "").trim();
  if (q === "") throw badRequest(emptySearchMessage);
  const key = searchKey(auth.user.id, input);
  const after: SearchPosition | undefined = input.cursor === undefined ? undefined : readCursor(input.cursor, key, deps.appSecret);
  await countAgainstLimit(deps.db, deps.clock, rateRule(deps, "searchesPerUser"), String(auth.user.id));

  const { searched, row } = await runSearch(deps, auth, input, (companiesOfSearch) =>
    searchStatement({
      q,
      userId: auth.user.id,
      companies: companiesOfSearch,
      kinds: input.kind ? [input.kind] : searchKinds,
      meetingId: input.meetingId,
      from: input.from,
      to: input.to,
      after,
      maxPagesRanked: searchLimits.pagesRanked,
      limit: searchPageSize + 1,
      listUnsearched: after === undefined,
      headlineOptions,
      sentinels,
    }),
  );
  if (input.meetingId !== undefined && !row?.meeting_known) throw badRequest(unknownMeetingMessage);
  if (!row) return { results: [], nextCursor: null, morePagesMatched: false, unsearched: [] };
  const companyNames = new Map(searched.map((company) => [company.id, company.name]));
  const found = parsed(row.results);
  const page = found.slice(0, searchPageSize);
  const last = page.at(-1);
  const nextCursor =
    found.length > searchPageSize && last
      ? writeCursor({ rank: last.rank, kindOrder: last.kindOrder, id: last.id }, key, deps.appSecret)
      : null;
  return {
    results: page.map((result) => toResult(result, companyNames)),
    nextCursor,
    morePagesMatched: row.more_pages_matched,
    unsearched: parsed(row.unsearched).map((paper) => ({
      documentId: paper.documentId,
      title: paper.title,
      reason: unsearchedReasons[paper.status] ?? "failed",
    })),
  };
}
