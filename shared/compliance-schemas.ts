// The compliance answers' schemas and the feed addresses' queries. They sit apart from compliance.ts, which the
// dashboard's first load reads without the validation library; each answer schema is bound to its type there.
import { z } from "zod";
import { answer, answerSchemaFor } from "./answer";
import {
  complianceCategories,
  complianceGroupNames,
  complianceStatuses,
  type CalendarFeed,
  type ComplianceGroup,
  type ComplianceItem,
} from "./compliance";
import { id, parseId } from "./input";

export const complianceItemSchema = answerSchemaFor<ComplianceItem>()(
  answer.object({
    id: answer.string(),
    title: answer.string(),
    description: answer.string(),
    status: answer.enum(complianceStatuses),
    dueDate: answer.string().optional(),
    category: answer.enum(complianceCategories),
  }),
);

export const complianceGroupSchema = answerSchemaFor<ComplianceGroup>()(
  answer.object({
    name: answer.enum(complianceGroupNames),
    progress: answer.number().int(),
    items: answer.array(complianceItemSchema),
  }),
);

export const calendarFeedSchema = answerSchemaFor<CalendarFeed>()(
  answer.object({ url: answer.string(), companyId: answer.number().int() }),
);

/** The query of the feed address calls: the company, else the caller's active company. */
export const calendarFeedQuerySchema = z.object({ companyId: z.optional(id("companyId must be a company id")) });

/** A part of a feed address: present and not empty, or the address is refused (400). */
const feedAddressPart = (name: string) => z.unknown().refine((value) => value !== undefined && value !== "", `${name} is required`);

/**
 * The query of `GET /api/calendar-feed.ics?user=&company=&key=`, the address a calendar app subscribes to.
 * A user or company that cannot be an id is null, and a key that is not text is empty: such an address is no
 * feed (404), like one with a wrong key, rather than a bad request.
 */
export const calendarFeedAddressSchema = z.object({
  user: feedAddressPart("user").transform(parseId),
  company: feedAddressPart("company").transform(parseId),
  key: feedAddressPart("key").transform((value) => (typeof value === "string" ? value : "")),
});
export type CalendarFeedAddress = z.infer<typeof calendarFeedAddressSchema>;
