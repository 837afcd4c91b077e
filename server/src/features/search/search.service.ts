// `GET /api/search`: the caller's search over their companies' record, one statement per page (search-sql.ts).
import { sql } from "drizzle-orm";
import type { z } from "zod";
import {
  emptySearchMessage,
  searchKinds,
  searchPageSize,
  type searchQuerySchema,
  type SearchPage,
  type SearchResult,
  type UnsearchedReason,
} from "../../../../shared/search";
import type { ServiceDeps } from "../../app-deps";
import { databaseFailureOf } from "../../database-failure";
import { badRequest, HttpError } from "../../http/errors";
import { escapeHtml } from "../../http/escape-html";
import type { AuthContext } from "../../http/request-context";
import { countAgainstLimit } from "../../http/rate-limit";
import { rateRule } from "../../limits";
import { readCursor, writeCursor } from "./search-cursor";
import { searchStatement, type SearchPosition } from "./search-sql";

type SearchDeps = ServiceDeps<"db" | "clock" | "appSecret" | "limits">;
type SearchInput = z.output<typeof searchQuerySchema>;

export const fromAfterToMessage = "From must be on or before to";
export const unknownMeetingMessage = "That meeting is not one of the boards searched";
export const searchTooLongTakenMessage = "The search took too long: add a word, or narrow it by kind, meeting or dates";

/**
 * A search that runs longer is ended by the database (a few words common to nearly every page are the costly case):
 * the caller is told to narrow it, and nothing else waits behind it. Tests shorten it.
 */
export const searchLimits = { timeoutMs: 3_000 };

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
  companyName: string;
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
}

/** json columns: parsed by both drivers, but read either way. */
const parsed = <T>(value: T | string): T => (typeof value === "string" ? (JSON.parse(value) as T) : value);

function toResult(row: ResultRow): SearchResult {
  const kind = searchKinds[row.kindOrder]!;
  return {
    kind,
    id: row.id,
    companyId: row.companyId,
    companyName: row.companyName,
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

async function runStatement(deps: SearchDeps, statement: ReturnType<typeof searchStatement>): Promise<StatementRow> {
  try {
    return await deps.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('statement_timeout', ${String(searchLimits.timeoutMs)}, true)`);
      const result = (await tx.execute(statement)) as unknown as { rows: StatementRow[] };
      return result.rows[0]!;
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

  const row = await runStatement(
    deps,
    searchStatement({
      q,
      userId: auth.user.id,
      companies: input.scope === "all" ? "all" : { only: auth.user.activeCompanyId },
      passedSecondFactor: auth.secondFactorAt !== null,
      kinds: input.kind ? [input.kind] : searchKinds,
      meetingId: input.meetingId,
      from: input.from,
      to: input.to,
      after,
      limit: searchPageSize + 1,
      listUnsearched: after === undefined,
      headlineOptions,
      sentinels,
    }),
  );
  if (!row.meeting_known) throw badRequest(unknownMeetingMessage);
  const found = parsed(row.results);
  const page = found.slice(0, searchPageSize);
  const last = page.at(-1);
  const nextCursor =
    found.length > searchPageSize && last
      ? writeCursor({ rank: last.rank, kindOrder: last.kindOrder, id: last.id }, key, deps.appSecret)
      : null;
  return {
    results: page.map(toResult),
    nextCursor,
    unsearched: parsed(row.unsearched).map((paper) => ({
      documentId: paper.documentId,
      title: paper.title,
      reason: unsearchedReasons[paper.status] ?? "failed",
    })),
  };
}
