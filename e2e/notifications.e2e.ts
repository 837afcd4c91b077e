import { meetingCategory, meetingEndFrom } from "../shared/meeting-model";
import { apiAs, boardWithMembers, memberCredentials, memberSession, uniqueName, type Board } from "./set-up";
import { checkScreen, screenshot, useBrowser, viewports } from "./support";

const browser = useBrowser();

/** Another member of the board schedules a meeting with `participantId` and asks for notifications. */
async function anotherMemberSchedules(board: Board, participantId: number, title: string): Promise<{ id: number }> {
  const scheduler = board.members[1]!;
  const session = await memberSession(scheduler);
  const start = new Date(Date.now() + 3 * 24 * 60 * 60 * 1000);
  return apiAs<{ id: number }>(session, "POST", "/api/documents", {
    category: meetingCategory,
    sendNotifications: true,
    content: JSON.stringify({
      type: "meeting",
      title,
      date: start.toISOString(),
      endDate: meetingEndFrom(start).toISOString(),
      location: "Boardroom, 1 King Street",
      status: "pending",
      participants: [String(participantId), String(scheduler.id)],
      agenda: "",
    }),
  });
}

describe("notifications in the bell", () => {
  for (const [label, viewport] of viewports) {
    it(`at ${label} px: a meeting another member schedules appears in the bell; opening it marks it read and clears the count; "Mark all read" clears the rest`, async () => {
      const board = await boardWithMembers();
      const reader = board.members[0]!;
      const page = await browser.signedInPage(memberCredentials(reader), { viewport, awaitWelcome: true });
      await page.getByRole("button", { name: "Notifications", exact: true }).waitFor();

      const title = uniqueName("Budget review ");
      const meeting = await anotherMemberSchedules(board, reader.id, title);
      await page.reload();
      const bell = page.getByRole("button", { name: "Notifications, 1 unread" });
      await bell.waitFor();
      expect(await page.getByTestId("notifications-count").textContent()).toBe("1");

      await bell.click();
      const menu = page.getByRole("menu");
      const item = menu.getByRole("menuitem", { name: new RegExp(`Meeting scheduled: ${title}\\s*, unread`) });
      await item.waitFor();
      await checkScreen(page, `notifications-${label}-bell`);

      await item.click();
      await page.waitForURL(`**/meetings/${meeting.id}`);
      await page.getByRole("button", { name: "Notifications", exact: true }).waitFor();
      expect(await page.getByTestId("notifications-count").count()).toBe(0);

      // Two more, then "Mark all read"; the read one stays listed, without the unread mark.
      await anotherMemberSchedules(board, reader.id, uniqueName("Audit committee "));
      await anotherMemberSchedules(board, reader.id, uniqueName("Strategy day "));
      await page.reload();
      await page.getByRole("button", { name: "Notifications, 2 unread" }).click();
      await page.getByRole("menuitem", { name: "Mark all read" }).click();
      await page.getByText("No new notifications").waitFor();
      await page
        .getByRole("menu")
        .getByRole("menuitem", { name: new RegExp(`Meeting scheduled: ${title}`) })
        .waitFor();
      expect(
        await page
          .getByRole("menu")
          .getByRole("menuitem", { name: /, unread/ })
          .count(),
      ).toBe(0);
      await screenshot(page, `notifications-${label}-all-read`);
      await page.keyboard.press("Escape");
      await page.reload();
      await page.getByRole("button", { name: "Notifications", exact: true }).waitFor();
      expect(await page.getByTestId("notifications-count").count()).toBe(0);
    });
  }
});
