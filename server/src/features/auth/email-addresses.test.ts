import { and, eq, sql } from "drizzle-orm";
import request from "supertest";
import { auditEvents, users } from "../../db/schema";
import { hashPassword } from "../../crypto/passwords";
import { linkTokenIn } from "../../testing/smtp-capture";
import { startTestSmtp } from "../../testing/test-smtp";
import { useTestContext, type SignedUp } from "../../testing/test-context";
import { emailVerificationFixtures } from "../../testing/email-verification-fixtures";

const ctx = useTestContext();
const api = () => request(ctx.app);
let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
const { mailsTo, confirmSubject, confirmationToken, verify, currentUser, proveSessionFresh, verifiedUser } = emailVerificationFixtures(
  ctx,
  () => smtp,
);

beforeAll(async () => {
  smtp = await startTestSmtp();
  await smtp.configure(ctx);
  // The installation's first account (verified and admin by rule): every account of the tests below comes after it.
  await ctx.signUp({ confirmAddress: false });
});
afterAll(() => smtp.close());

describe("an unverified address grants and reserves nothing", () => {
  it("lets a second account register with an unverified address, and the one that proves it takes it from the other", async () => {
    const first = await ctx.signUp({ confirmAddress: false, username: "claimant-one", email: "contested@example.com" });
    const second = await ctx.signUp({ confirmAddress: false, username: "claimant-two", email: "Contested@Example.com" });
    const [firstMail, secondMail] = await mailsTo(ctx, "contested@example.com", confirmSubject);
    const secondToken = linkTokenIn(secondMail!, "/verify-email");
    ctx.noteSecret(secondToken, linkTokenIn(firstMail!, "/verify-email"));

    const proved = await verify(secondToken);
    expect(proved.status).toBe(200);
    expect(proved.body).toMatchObject({ id: second.id, email: "Contested@Example.com", emailVerified: true });

    // The other account lost the address: it still signs in by username, and is told to give a new one.
    const [loser] = await ctx.db.select().from(users).where(eq(users.id, first.id));
    expect(loser).toMatchObject({ email: "", emailVerified: false });
    const login = await api().post("/api/auth/login").send({ username: "claimant-one", password: first.password });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ id: first.id, email: "", emailVerified: false, pendingEmail: null });
    expect((await currentUser(first)).body).toMatchObject({ email: "", emailVerified: false });

    // Its own link can no longer take the address (409), and the address is now reserved.
    const late = await verify(linkTokenIn(firstMail!, "/verify-email"));
    expect(late.status).toBe(409);
    expect(late.body).toEqual({ message: expect.any(String) });
    const third = await api()
      .post("/api/auth/register")
      .send({ username: "claimant-three", email: "CONTESTED@example.com", password: "secret12" });
    expect(third.status).toBe(409);
    expect(third.body).toEqual({ message: "Email already registered" });
    const byAddress = await api().post("/api/auth/login").send({ username: "contested@example.com", password: second.password });
    expect(byAddress.body.id).toBe(second.id);
  });

  it("gives the address to one of two accounts that follow their links at the same moment, and 409 to the other", async () => {
    // A few rounds: on Postgres the two transactions interleave differently each time.
    for (const round of [1, 2, 3]) {
      const address = `both.at.once.${round}@example.com`;
      const one = await ctx.signUp({ confirmAddress: false, email: address });
      const two = await ctx.signUp({ confirmAddress: false, email: address });
      const tokens = (await mailsTo(ctx, address, confirmSubject)).map((mail) => linkTokenIn(mail, "/verify-email"));
      ctx.noteSecret(...tokens);
      expect(tokens).toHaveLength(2);
      const answers = await Promise.all(tokens.map((token) => verify(token)));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const winner = answers.find((answer) => answer.status === 200)!.body.id as number;
      const loser = winner === one.id ? two.id : one.id;
      const rows = await ctx.db
        .select({ id: users.id, email: users.email, emailVerified: users.emailVerified })
        .from(users)
        .where(sql`${users.id} in (${one.id}, ${two.id})`);
      expect(rows.find((row) => row.id === winner)).toEqual({ id: winner, email: address, emailVerified: true });
      expect(rows.find((row) => row.id === loser)).toEqual({ id: loser, email: "", emailVerified: false });
    }
  });

  it("signs in by an address held only unverified as its oldest holder, and by a verified one as its prover", async () => {
    const older = await ctx.signUp({ confirmAddress: false, email: "shared-login@example.com", password: "older-password" });
    const newer = await ctx.signUp({ confirmAddress: false, email: "shared-login@example.com", password: "newer-password" });
    const login = (password: string) => api().post("/api/auth/login").send({ username: "shared-login@example.com", password });
    expect((await login("older-password")).body.id).toBe(older.id);
    expect((await login("newer-password")).status).toBe(401);

    const [, newerMail] = await mailsTo(ctx, "shared-login@example.com", confirmSubject);
    const token = linkTokenIn(newerMail!, "/verify-email");
    ctx.noteSecret(token);
    expect((await verify(token)).status).toBe(200);
    expect((await login("newer-password")).body.id).toBe(newer.id);
    expect((await login("older-password")).status).toBe(401);
  });

  it("signs the holder in by their proved address even when another account took it as its username while it was unproved", async () => {
    const address = "squatted@example.com";
    await ctx.signUp({ confirmAddress: false, username: address, email: address, password: "squatter-password" });
    const holder = await ctx.signUp({ confirmAddress: false, email: address, password: "holder-password" });
    const [, holderMail] = await mailsTo(ctx, address, confirmSubject);
    const token = linkTokenIn(holderMail!, "/verify-email");
    ctx.noteSecret(token);
    expect((await verify(token)).status).toBe(200);
    const signedIn = await api().post("/api/auth/login").send({ username: address, password: "holder-password" });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.id).toBe(holder.id);
    ctx.noteSecret(signedIn.body.token);
  });

  it("never signs in an account whose holder has not set a password, with the same 401 as a wrong password", async () => {
    // As "Add Member" makes one: a hash that would match, but no password of the holder's own.
    await ctx.db.insert(users).values({
      username: "placeholder-account",
      email: "placeholder@example.com",
      passwordHash: await hashPassword("admins-choice"),
      passwordSet: false,
    });
    const wrong = await api().post("/api/auth/login").send({ username: "placeholder-account", password: "not-it" });
    for (const name of ["placeholder-account", "placeholder@example.com"]) {
      const response = await api().post("/api/auth/login").send({ username: name, password: "admins-choice" });
      expect(response.status, name).toBe(401);
      expect(response.body).toEqual(wrong.body);
    }
  });
});

describe("changing the e-mail address", () => {
  const change = (user: SignedUp, body: Record<string, unknown>) =>
    api().patch(`/api/users/${user.id}`).set("Authorization", user.bearer).send(body);

  it("needs a fresh proof (401 reauth_required) and then changes nothing, the other fields included", async () => {
    const user = await verifiedUser();
    const refused = await change(user, { firstName: "Changed", email: "elsewhere@example.com" });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: "reauth_required", message: expect.any(String) });
    const [row] = await ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ email: user.email, pendingEmail: null, firstName: "Test" });
    expect(await mailsTo(ctx, "elsewhere@example.com")).toHaveLength(0);

    // A proof older than 10 minutes no longer counts.
    await proveSessionFresh(user);
    ctx.clock.advance(10 * 60_000 + 1_000);
    expect((await change(user, { email: "elsewhere@example.com" })).status).toBe(401);

    // Other fields need no proof.
    const names = await change(user, { firstName: "Renamed" });
    expect(names.status).toBe(200);
    expect(names.body).toMatchObject({ firstName: "Renamed", email: user.email, emailVerified: true, pendingEmail: null });
  });

  it("keeps the old address until the new one is confirmed, tells the old address, and records the request", async () => {
    const user = await verifiedUser({ email: "old.address@example.com" });
    await proveSessionFresh(user);
    const asked = await change(user, { email: "New.Address@example.com" });
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({
      id: user.id,
      email: "old.address@example.com",
      emailVerified: true,
      pendingEmail: "New.Address@example.com",
    });
    expect((await currentUser(user)).body).toMatchObject({ email: "old.address@example.com", pendingEmail: "New.Address@example.com" });

    const [security] = await mailsTo(ctx, "old.address@example.com", /Security alert/);
    expect(security!.text).toContain("to N••@example.com was asked for");
    expect(security!.text).not.toContain("New.Address@example.com");
    const [confirmation] = await mailsTo(ctx, "new.address@example.com", confirmSubject);
    expect(confirmation!.text).toContain(
      `You asked to use New.Address@example.com for the Quorum account with the username ${user.username}. It replaces your current address`,
    );
    const token = linkTokenIn(confirmation!, "/verify-email");
    ctx.noteSecret(token);

    const [event] = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "account.email_change_requested"), eq(auditEvents.targetId, String(user.id))));
    expect(event).toMatchObject({ actorId: user.id, companyId: null, details: { to: "N••@example.com" } });

    // Until confirmed, the old address still signs in; after, only the new one does.
    expect((await api().post("/api/auth/login").send({ username: "new.address@example.com", password: user.password })).status).toBe(401);
    const confirmed = await verify(token);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ id: user.id, email: "New.Address@example.com", emailVerified: true, pendingEmail: null });
    expect((await api().post("/api/auth/login").send({ username: "new.address@example.com", password: user.password })).body.id).toBe(
      user.id,
    );
    expect((await api().post("/api/auth/login").send({ username: "old.address@example.com", password: user.password })).status).toBe(401);
  });

  it("answers a change to an address another account proved as any other, and no link can take it from them", async () => {
    const holder = await verifiedUser({ email: "proved.elsewhere@example.com" });
    const asker = await verifiedUser();
    const unknownAddress = await verifiedUser();
    await proveSessionFresh(asker);
    await proveSessionFresh(unknownAddress);
    const toTaken = await change(asker, { email: "Proved.Elsewhere@example.com" });
    const toFree = await change(unknownAddress, { email: "free.address@example.com" });
    expect(toTaken.status).toBe(toFree.status);
    expect(Object.keys(toTaken.body).sort()).toEqual(Object.keys(toFree.body).sort());
    expect(toTaken.body).toMatchObject({ email: asker.email, pendingEmail: "Proved.Elsewhere@example.com" });

    const token = await confirmationToken("proved.elsewhere@example.com");
    const refused = await verify(token);
    expect(refused.status).toBe(409);
    const [holderRow] = await ctx.db.select().from(users).where(eq(users.id, holder.id));
    expect(holderRow).toMatchObject({ email: "proved.elsewhere@example.com", emailVerified: true });
    const [askerRow] = await ctx.db.select().from(users).where(eq(users.id, asker.id));
    expect(askerRow).toMatchObject({ email: asker.email, emailVerified: true });
    await mailsTo(ctx, "free.address@example.com");
  });

  it("drops a pending change to an address when another account proves it", async () => {
    const asker = await verifiedUser();
    await proveSessionFresh(asker);
    expect((await change(asker, { email: "race.target@example.com" })).status).toBe(200);
    const askerToken = await confirmationToken("race.target@example.com");

    const prover = await ctx.signUp({ confirmAddress: false, email: "race.target@example.com" });
    expect((await verify(await confirmationToken("race.target@example.com"))).status).toBe(200);
    expect((await currentUser(asker)).body).toMatchObject({ email: asker.email, pendingEmail: null });
    expect((await verify(askerToken)).status).toBe(409);
    expect((await currentUser(prover)).body).toMatchObject({ email: "race.target@example.com", emailVerified: true });
  });
});
