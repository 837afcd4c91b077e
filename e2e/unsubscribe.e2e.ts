import { inject } from "vitest";
import { signUnsubscribeToken } from "../server/src/features/notifications/unsubscribe-token";
import { apiAs, registerAccount } from "./set-up";
import { checkScreen, expectAccessible, screenshot, useBrowser, viewports } from "./support";

const browser = useBrowser();

describe("an e-mail's unsubscribe link", () => {
  for (const [label, viewport] of viewports) {
    it(`at ${label} px, signed out: opening it turns nothing off; the page names the switch and its button turns it off`, async () => {
      const account = await registerAccount();
      // What an e-mail's List-Unsubscribe address holds: the server signs it with its APP_SECRET.
      const token = signUnsubscribeToken(account.id, "documentUpdates", inject("appSecret"));
      const switches = () => apiAs<Record<string, boolean>>(account, "GET", `/api/users/${account.id}/preferences`);
      const { page } = await browser.openPage(viewport);

      await page.goto(`/api/unsubscribe?token=${token}`);
      await page.getByRole("button", { name: "Turn off Document Updates" }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/unsubscribe");
      expect((await switches()).documentUpdates).toBe(true);
      await checkScreen(page, `unsubscribe-ask-${label}`);

      await page.getByRole("button", { name: "Turn off Document Updates" }).click();
      await page.getByRole("heading", { level: 1, name: "You are unsubscribed" }).waitFor();
      expect((await switches()).documentUpdates).toBe(false);
      await expectAccessible(page);
      await screenshot(page, `unsubscribe-done-${label}`);
    });
  }

  it("a forged link says it is not valid", async () => {
    const { page } = await browser.openPage();
    await page.goto("/unsubscribe?token=bm90.aGluZw");
    await page.getByRole("alert").filter({ hasText: "This unsubscribe link is not valid" }).waitFor();
    expect(await page.getByRole("button", { name: /Turn off/ }).count()).toBe(0);
  });
});
