import request from "supertest";
import { createCompany, addMember } from "../../testing/factories";
import { enableTotp, withSecondFactorSession } from "../../testing/second-factor-fixtures";
import { useTestContext, type SignedUp } from "../../testing/test-context";
import { useTestSmtp } from "../../testing/test-smtp";
import { notify } from "./notifications.service";

const ctx = useTestContext();
const api = () => request(ctx.app);
const smtp = await useTestSmtp(ctx);

const hidden = "An update in Alpha Board Ltd — sign in with your second factor to see it";
const secret = {
  title: "Board meeting scheduled: Project Falcon",
  body: "Grace Hopper scheduled the acquisition review.",
  link: "/meetings/42",
};

/** Another session of a user, signed in with the password alone (before they had a factor). */
async function passwordSession(user: SignedUp): Promise<string> {
  const response = await api().post("/api/auth/login").send({ username: user.username, password: user.password });
  expect(response.status).toBe(200);
  ctx.noteSecret(response.body.token);
  return `Bearer ${response.body.token}`;
}

describe("notifications of a company that requires a second factor", () => {
  it("the notification list hides titles from a session that skipped its second factor, and e-mails never carry them", async () => {
    const founder = await withSecondFactorSession(ctx, await ctx.signUp());
    const strict = await createCompany(ctx.db, { name: "Alpha Board Ltd", founderId: founder.id });
    const relaxed = await createCompany(ctx.db, { name: "Open Board Ltd", founderId: founder.id });
    const required = await api()
      .put(`/api/companies/${strict.id}`)
      .set("Authorization", founder.bearer)
      .send({ name: "Alpha Board Ltd", industry: "Technology", location: "London", stage: "seed", requireSecondFactor: true });
    expect(required.status).toBe(200);
    const director = await ctx.signUp();
    await addMember(ctx.db, strict.id, director.id, "member");
    await addMember(ctx.db, relaxed.id, director.id, "member");
    const phone = await passwordSession(director);
    await enableTotp(ctx, director);
    await smtp.deliver(ctx);

    await ctx.db.transaction(async (tx) => {
      await notify(tx, { kind: "meetingScheduled", companyId: strict.id, recipients: [director.id], ...secret });
      await notify(tx, {
        kind: "documentUploaded",
        companyId: relaxed.id,
        recipients: [director.id],
        title: "Minutes uploaded",
        link: "/documents",
      });
    });

    const list = async (bearer: string) => {
      const response = await api().get("/api/notifications").set("Authorization", bearer);
      expect(response.status).toBe(200);
      return response.body as Array<Record<string, unknown>>;
    };
    const [strictOnPhone, relaxedOnPhone] = [...(await list(phone))].sort((a, b) => Number(a.id) - Number(b.id));
    // Its id, company, kind, time and read state stay, so the bell can count and mark it; nothing that names anything.
    expect(strictOnPhone).toEqual({
      id: expect.any(Number),
      kind: "meetingScheduled",
      companyId: strict.id,
      title: hidden,
      body: null,
      link: null,
      readAt: null,
      createdAt: expect.any(String),
    });
    expect(relaxedOnPhone).toMatchObject({ title: "Minutes uploaded", link: "/documents" });
    // The session that passed the second factor reads it whole.
    const whole = (await list(director.bearer)).find((notification) => notification.id === strictOnPhone!.id);
    expect(whole).toMatchObject(secret);
    // Marking it read works the same from either session.
    expect(
      (
        await api()
          .post(`/api/notifications/${String(strictOnPhone!.id)}/read`)
          .set("Authorization", phone)
      ).status,
    ).toBe(204);
    expect((await list(phone)).find((notification) => notification.id === strictOnPhone!.id)).toMatchObject({
      title: hidden,
      readAt: expect.any(String),
    });

    // E-mail has no session: the company's mails say only that there is an update.
    const mails = await smtp.deliver(ctx, director.email);
    const strictMail = mails.find((mail) => mail.text.includes("An update in Alpha Board Ltd"));
    expect(strictMail?.text).toContain("sign in with your second factor to see it");
    expect(strictMail?.raw).not.toContain("Falcon");
    expect(strictMail?.raw).not.toContain("Grace Hopper");
    expect(strictMail?.raw).not.toContain("/meetings/42");
    expect(mails.find((mail) => mail.subject === "Minutes uploaded")).toBeDefined();
  });
});
