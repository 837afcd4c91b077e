import { screen, within } from "@testing-library/react";
import * as meetingsApi from "@shared/api/meetings";
import { freezeDateAt } from "@/testing/clock";
import { buildUser } from "@/testing/factories";
import { handle } from "@/testing/handle";
import { buildUpcomingMeeting } from "@/testing/meeting-fixtures";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";

const now = new Date("2026-06-01T09:00:00.000Z");
freezeDateAt(now);

describe("the dashboard's Upcoming Meetings", () => {
  it("flags, with an icon and words, a meeting with a paper changed since the viewer read it", async () => {
    server.use(
      handle(meetingsApi.upcomingMeetings, () => [
        buildUpcomingMeeting({ id: 31, title: "Q3 Board Meeting", date: "2026-07-15T13:30:00.000Z", papersChanged: true }),
        buildUpcomingMeeting({ id: 32, title: "AGM", date: "2026-08-01T09:00:00.000Z" }),
      ]),
    );
    renderApp({ path: "/", signedInAs: buildUser({ id: 7, companyId: 3 }) });
    const panel = (await screen.findByRole("heading", { name: "Upcoming Meetings" })).closest("[data-slot=card]") as HTMLElement;
    const changed = await within(panel).findByRole("link", { name: /Q3 Board Meeting/ });
    expect(within(changed).getByText("Papers changed since you read them")).toBeInTheDocument();
    expect(within(panel).getByRole("link", { name: /AGM/ })).not.toHaveTextContent("Papers changed");
  });
});
