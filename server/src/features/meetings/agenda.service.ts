import { and, asc, desc, eq, gte, isNull, lt, ne, sql } from "drizzle-orm";
import { displayName } from "../../../../shared/people";
import { type AgendaItem, type GeneratedAgenda } from "../../../../shared/meetings";
import type { AppDeps, ServiceDeps } from "../../app-deps";
import { actionItems, companies, documents, meetings, resolutions, users } from "../../db/schema";
import { nameColumns } from "../../db/columns";
import { HttpError, notFound } from "../../http/errors";
import {
  AiServiceError,
  aiFailureForLog,
  aiFailureMessage,
  completeChat,
  resolveAiConfig,
  type AiChatConfig,
} from "../../integrations/ai-chat";
import { countAiCall } from "../../limits";
import { writtenSinceLastMeeting } from "./written-since-last-meeting.service";
import { agendaPrompt, parseAgendaAnswer, templateAgenda, withServerItems, type AgendaContext } from "./agenda-drafts";

/** How much of the company's data an agenda is drafted from. */
const recentDocumentsInPrompt = 5;
const pendingResolutionsInPrompt = 20;
/** More open action items than Matters arising's description can name are counted, not read. */
const openActionItemsInDraft = 40;

/**
 * The company's newest library documents: its documents that are not meetings, newest first (the order of the
 * library's own list).
 */
async function recentLibraryDocuments({ db }: ServiceDeps<"db">, companyId: number, limit: number) {
  return db
    .select({ name: documents.name, category: documents.category, createdAt: documents.createdAt })
    .from(documents)
    .leftJoin(meetings, eq(meetings.documentId, documents.id))
    .where(and(eq(documents.companyId, companyId), isNull(meetings.documentId)))
    .orderBy(desc(documents.createdAt), desc(documents.id))
    .limit(limit);
}

/**
 * The company's open action items for Matters arising, soonest due first, with how many are open in all (one
 * query). Read from the table itself: the items are written by the meeting record, which builds on this feature.
 */
async function openActionItems({ db }: ServiceDeps<"db">, companyId: number): Promise<AgendaContext["openActionItems"]> {
  const rows = await db
    .select({
      title: actionItems.title,
      dueDate: actionItems.dueDate,
      ...nameColumns,
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(actionItems)
    .innerJoin(users, eq(users.id, actionItems.ownerId))
    .where(and(eq(actionItems.companyId, companyId), eq(actionItems.status, "open")))
    .orderBy(asc(actionItems.dueDate), asc(actionItems.id))
    .limit(openActionItemsInDraft);
  return {
    items: rows.map((row) => ({ title: row.title, dueDate: row.dueDate, ownerName: displayName(row) })),
    total: rows[0]?.total ?? 0,
  };
}

/** The meeting and its company's data, in a fixed number of queries. */
async function agendaContextFor(deps: ServiceDeps<"db" | "clock">, meetingId: number): Promise<AgendaContext> {
  const [found] = await deps.db
    .select({
      companyId: meetings.companyId,
      title: meetings.title,
      startsAt: meetings.startsAt,
      location: meetings.location,
      company: {
        name: companies.name,
        industry: companies.industry,
        location: companies.location,
        stage: companies.stage,
        description: companies.description,
      },
    })
    .from(meetings)
    .innerJoin(companies, eq(companies.id, meetings.companyId))
    .where(eq(meetings.documentId, meetingId));
  if (!found) throw notFound("Meeting not found");
  const now = deps.clock.now();
  const [pendingResolutions, recentDocuments, [lastMeeting], openItems, writtenResolutions] = await Promise.all([
    deps.db
      .select({ title: resolutions.title, type: resolutions.type, deadline: resolutions.deadline })
      .from(resolutions)
      .where(and(eq(resolutions.companyId, found.companyId), eq(resolutions.status, "pending"), gte(resolutions.deadline, now)))
      .orderBy(asc(resolutions.createdAt), asc(resolutions.id))
      .limit(pendingResolutionsInPrompt),
    // The board's library (files, never meetings).
    recentLibraryDocuments(deps, found.companyId, recentDocumentsInPrompt),
    deps.db
      .select({ title: meetings.title, startsAt: meetings.startsAt })
      .from(meetings)
      .where(
        and(
          eq(meetings.companyId, found.companyId),
          ne(meetings.status, "draft"),
          ne(meetings.documentId, meetingId),
          lt(meetings.startsAt, found.startsAt),
        ),
      )
      .orderBy(desc(meetings.startsAt))
      .limit(1),
    openActionItems(deps, found.companyId),
    writtenSinceLastMeeting(deps.db, { id: meetingId, companyId: found.companyId, startsAt: found.startsAt }),
  ]);
  return {
    meeting: { title: found.title, startsAt: found.startsAt, location: found.location },
    company: found.company,
    pendingResolutions,
    recentDocuments,
    lastMeeting: lastMeeting ?? null,
    openActionItems: openItems,
    writtenResolutions,
  };
}

/** Asks the AI for the agenda and checks its answer; every failure is a 502 with a message, and a log line without the key. */
async function aiAgenda(config: AiChatConfig, context: AgendaContext, logger: AppDeps["logger"]): Promise<AgendaItem[]> {
  const prompt = agendaPrompt(context);
  const where = { baseURL: config.baseURL, model: config.model };
  let answer: string | null;
  try {
    answer = await completeChat(config, [
      { role: "system", content: prompt.system },
      { role: "user", content: prompt.user },
    ]);
  } catch (error) {
    if (!(error instanceof AiServiceError)) throw error;
    logger.warn({ ai: { ...where, ...aiFailureForLog(error) } }, "agenda generation failed");
    throw new HttpError(502, aiFailureMessage(error));
  }
  const parsed = parseAgendaAnswer(answer);
  const items = parsed && withServerItems(parsed, context);
  if (!items) {
    logger.warn({ ai: { ...where, answerLength: answer?.length ?? 0 } }, "agenda answer was not a valid agenda");
    throw new HttpError(502, "The AI service answered with something that is not a valid agenda");
  }
  return items;
}

/**
 * `POST /api/meetings/:id/generate-agenda`: the AI's items when an AI is configured, else the standard template. Each
 * call to the AI counts against the hourly limits of them of the company and of the user asking (429 with
 * Retry-After beyond either; a refused call counts against neither).
 */
export async function generateAgenda(
  deps: ServiceDeps<"db" | "clock" | "appSecret" | "ai" | "limits" | "outbound">,
  asker: { companyId: number; userId: number },
  meetingId: number,
  /** The request's logger, so a failure's log line carries the request id. */
  logger: AppDeps["logger"],
): Promise<GeneratedAgenda> {
  const context = await agendaContextFor(deps, meetingId);
  let config: AiChatConfig | null;
  try {
    config = await resolveAiConfig(deps);
  } catch (error) {
    if (error instanceof AiServiceError) throw new HttpError(502, aiFailureMessage(error));
    throw error;
  }
  if (!config) return { items: templateAgenda(context), source: "template" };
  await countAiCall(deps, asker);
  return { items: await aiAgenda(config, context, logger), source: "ai" };
}
