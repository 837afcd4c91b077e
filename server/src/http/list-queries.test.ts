import request from "supertest";
import type { Endpoint } from "../../../shared/api/endpoint";
import { apiTable } from "../../../shared/api/table";
import { eq } from "drizzle-orm";
import { actionItems, documents, meetings, notifications, platformServices, resolutions, votes } from "../db/schema";
import { textReadsSettled } from "../features/documents/paper-text.service";
import { encryptSecret, maskSecret } from "../integrations/secrets";
import { addMember, createCompany, meetingContent } from "../testing/factories";
import { createTestContext, useTestContext, type SignedUp } from "../testing/test-context";
import { linesPdf, versionFixtures } from "../testing/version-fixtures";

/**
 * Every list endpoint costs a fixed number of queries whatever the list length (no N+1):
 * each list is read once small and once ten times larger, and both reads must send the same number of statements.
 */
const ctx = useTestContext();
const { uploadPdf, replace } = versionFixtures(ctx);

const hour = 60 * 60 * 1000;

async function boardOf(size: number) {
  const founder = await ctx.signUp();
  const company = await createCompany(ctx.db, { name: `Board of ${size}`, founderId: founder.id });
  const members: SignedUp[] = [];
  for (let index = 0; index < size; index += 1) {
    const member = await ctx.signUp();
    // Each member also sits on a second board, so "other boards" has something to load.
    await createCompany(ctx.db, { name: `Other ${size}-${index}`, founderId: member.id, activate: false });
    await addMember(ctx.db, company.id, member.id, "member");
    members.push(member);
  }
  return { founder, company, members };
}

async function scheduleMeetings(founder: SignedUp, participants: SignedUp[], count: number) {
  const start = ctx.clock.now().getTime() + 24 * hour;
  for (let index = 0; index < count; index += 1) {
    const date = new Date(start + index * hour);
    const content = meetingContent(date, { title: `Meeting ${index}`, participants: participants.map((person) => String(person.id)) });
    const response = await request(ctx.app)
      .post("/api/documents")
      .set("Authorization", founder.bearer)
      .send({ category: "Meeting", fileType: "application/json", content: JSON.stringify(content) });
    expect(response.status).toBe(201);
  }
}

async function queriesFor(bearer: string, path: string): Promise<number> {
  return ctx.countQueries(async () => {
    const response = await request(ctx.app).get(path).set("Authorization", bearer);
    expect(response.status).toBe(200);
    expect(Array.isArray(response.body) || typeof response.body === "object").toBe(true);
  });
}

describe("list endpoints run a fixed number of queries", () => {
  it("members, settings, documents and upcoming meetings", async () => {
    const small = await boardOf(1);
    const large = await boardOf(10);
    await scheduleMeetings(small.founder, small.members, 1);
    await scheduleMeetings(large.founder, large.members, 10);

    for (const path of [
      "/api/companies/:id/members",
      "/api/companies/:id/settings",
      "/api/companies/:id/meetings/upcoming",
      "/api/documents",
    ]) {
      const smallCount = await queriesFor(small.founder.bearer, path.replace(":id", String(small.company.id)));
      const largeCount = await queriesFor(large.founder.bearer, path.replace(":id", String(large.company.id)));
      expect(smallCount).toBeGreaterThan(0); // the list's own query: the counter works
      expect({ path, queries: largeCount }).toEqual({ path, queries: smallCount });
    }
  });

  it("the user's companies and notifications", async () => {
    const few = await ctx.signUp();
    const many = await ctx.signUp();
    await createCompany(ctx.db, { name: "Only one", founderId: few.id });
    for (let index = 0; index < 10; index += 1) await createCompany(ctx.db, { name: `Many ${index}`, founderId: many.id });
    const note = (userId: number) => ({ userId, companyId: null, kind: "test", title: "Hello" });
    await ctx.db.insert(notifications).values([note(few.id)]);
    await ctx.db.insert(notifications).values(Array.from({ length: 10 }, () => note(many.id)));

    for (const path of ["/api/companies", "/api/notifications"]) {
      expect({ path, queries: await queriesFor(many.bearer, path) }).toEqual({ path, queries: await queriesFor(few.bearer, path) });
    }
  });

  it("platform services", async () => {
    const fresh = await createTestContext();
    try {
      const admin = await fresh.signUp();
      const insertServices = (from: number, count: number) =>
        fresh.db.insert(platformServices).values(
          Array.from({ length: count }, (_, index) => ({
            serviceName: `Service ${from + index}`,
            serviceKeyEncrypted: encryptSecret("sk-test-key-000000", fresh.deps.appSecret),
            serviceKeyPreview: maskSecret("sk-test-key-000000"),
          })),
        );
      const count = () =>
        fresh.countQueries(async () => {
          expect((await request(fresh.app).get("/api/platform/settings").set("Authorization", admin.bearer)).status).toBe(200);
        });
      await insertServices(0, 1);
      await count(); // reads the session once; the counted calls find it in the instance's cache
      const one = await count();
      await insertServices(1, 10);
      expect(await count()).toBe(one);
    } finally {
      await fresh.close();
    }
  });
});

/** A list endpoint of the table: a GET whose answer is an array. */
const answersAList = (endpoint: Endpoint) => {
  const answer = endpoint.responses[200];
  return endpoint.method === "GET" && answer !== null && answer !== undefined && "_zod" in answer && answer._zod.def.type === "array";
};

describe("every list endpoint of the API's table", () => {
  /** A board of `size` members with `size` of everything its lists show: meetings, documents, resolutions with votes, notifications, sessions. */
  async function grownBoard(size: number) {
    const { founder, company, members } = await boardOf(size);
    await scheduleMeetings(founder, members, size);
    const many = (count: number) => Array.from({ length: count }, (_, index) => index);
    // The lists of one meeting are read on its first, which gave `size` action items.
    const [meeting] = await ctx.db.select({ id: meetings.documentId }).from(meetings).where(eq(meetings.companyId, company.id)).limit(1);
    await ctx.db.insert(actionItems).values(
      many(size).map((index) => ({
        companyId: company.id,
        meetingId: meeting!.id,
        title: `A${index}`,
        ownerId: founder.id,
        dueDate: "2026-12-01",
      })),
    );
    await ctx.db.insert(documents).values(
      many(size).map((index) => ({
        companyId: company.id,
        name: `Paper ${index}.pdf`,
        fileType: "application/pdf",
        fileSize: 4,
        category: "Legal",
        uploadedBy: founder.id,
        // Older than the replaced paper below, which is then among the recent ones of every board.
        createdAt: new Date(ctx.clock.now().getTime() - hour),
      })),
    );
    const deadline = new Date(ctx.clock.now().getTime() + 30 * 24 * hour);
    const made = await ctx.db
      .insert(resolutions)
      .values(
        many(size).map((index) => ({
          companyId: company.id,
          title: `R${index}`,
          description: "d",
          type: "Ordinary" as const,
          deadline,
          createdBy: founder.id,
        })),
      )
      .returning({ id: resolutions.id });
    await ctx.db
      .insert(votes)
      .values(made.flatMap(({ id }) => members.map((member) => ({ resolutionId: id, userId: member.id, vote: "yes" as const }))));
    await ctx.db
      .insert(notifications)
      .values(many(size).map(() => ({ userId: founder.id, companyId: company.id, kind: "test", title: "Hello" })));
    for (const _ of many(size)) {
      const login = await request(ctx.app).post("/api/auth/login").send({ username: founder.username, password: founder.password });
      expect(login.status).toBe(200);
    }
    // A paper replaced `size` times, with `size` of the founder's notes on its latest version.
    const paper = await uploadPdf(founder, "Versioned.pdf", "Versioned", 2);
    for (const index of many(size)) {
      expect(
        (await replace(founder, paper.id, `Revision ${index}`, "v.pdf", await linesPdf([[`Revision ${index}`], ["Costs"]]))).status,
      ).toBe(201);
    }
    for (const index of many(size)) {
      const note = { version: size + 1, page: 1, text: `Note ${index}` };
      expect((await request(ctx.app).post(`/api/documents/${paper.id}/notes`).set("Authorization", founder.bearer).send(note)).status).toBe(
        201,
      );
    }
    // Each version's text is read in the background: done before anything is counted.
    await textReadsSettled();
    return { founder, company, meetingId: meeting!.id, paperId: paper.id };
  }

  it("costs the same number of queries for a board of 1 and a board of 10", async () => {
    const lists = apiTable.filter(answersAList);
    // The walk is over the table: a new list endpoint is measured here without editing this file.
    expect(lists.length).toBeGreaterThan(5);
    const small = await grownBoard(1);
    const large = await grownBoard(10);
    const pathFor = (endpoint: Endpoint, board: typeof small) =>
      endpoint.path
        .replace(":companyId", String(board.company.id))
        .replace(
          ":id",
          String(
            endpoint.path.startsWith("/api/meetings/")
              ? board.meetingId
              : endpoint.path.startsWith("/api/documents/")
                ? board.paperId
                : board.founder.id,
          ),
        );
    for (const endpoint of lists) {
      if (endpoint.access.class === "platform") continue; // measured above, with a platform admin of its own
      const smallCount = await queriesFor(small.founder.bearer, pathFor(endpoint, small));
      const largeCount = await queriesFor(large.founder.bearer, pathFor(endpoint, large));
      expect({ path: endpoint.path, queries: largeCount }).toEqual({ path: endpoint.path, queries: smallCount });
    }
  });
});
