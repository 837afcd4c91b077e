import { screen, within } from "@testing-library/react";
import * as companiesApi from "@shared/api/companies";
import type { DocumentObject } from "@shared/documents";
import { freezeDateAt } from "@/testing/clock";
import { buildUser } from "@/testing/factories";
import { handle } from "@/testing/handle";
import { buildMember, serveDocuments } from "@/testing/meeting-fixtures";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { runInTimeZone } from "@/testing/time-zone";

/** The founder who schedules, in company 3. */
export const scheduler = buildUser({ id: 7, companyId: 3, firstName: "Fay", lastName: "Founder" });

/** The company's members, offered as participants. */
export const scheduleMembers = [
  buildMember({ id: 7, firstName: "Fay", lastName: "Founder", role: "founder" }),
  buildMember({ id: 8, firstName: "Ann", lastName: "Admin", role: "admin" }),
  buildMember({ id: 9, firstName: "Obi", lastName: "Observer", role: "observer" }),
];

/**
 * The schedule dialog's tests run in New York, so "local time stored as UTC" is visible (the machine itself runs
 * in UTC), at 3:09 PM on 14 March 2026.
 */
export function runOnScheduleClock(): void {
  runInTimeZone("America/New_York");
  freezeDateAt(new Date("2026-03-14T19:09:30.000Z"));
}

/** Serves the company's documents (as serveDocuments, whose state it returns) and its members. */
export function serveScheduleData(documents: DocumentObject[] = []) {
  const state = serveDocuments(documents);
  server.use(handle(companiesApi.listMembers, () => scheduleMembers, { params: { companyId: 3 } }));
  return state;
}

/** Opens the schedule dialog from /meetings, once its participants are listed. */
export async function openScheduleModal() {
  const view = renderApp({ path: "/meetings", signedInAs: scheduler });
  await view.user.click(await screen.findByRole("button", { name: "New Meeting" }));
  const dialog = await screen.findByRole("dialog", { name: "Schedule New Board Meeting" });
  await within(dialog).findByRole("checkbox", { name: /Ann Admin/ });
  return { ...view, dialog };
}
