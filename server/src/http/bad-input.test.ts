import { sql } from "drizzle-orm";
import request from "supertest";
import { meetingContent } from "../testing/factories";
import { withSecondFactorSession } from "../testing/second-factor-fixtures";
import { useTestContext, type SignedUp } from "../testing/test-context";

/**
 * Input Postgres would refuse must be refused first, as a 4xx with the JSON error body: a NUL character
 * in any text field, an id beyond Postgres' integer range, a megabyte where a name goes, a date outside
 * the years 1900–9999 (a meeting's derived end included). Each class was once a 500.
 */
const ctx = useTestContext();
let admin: SignedUp;
let founder: SignedUp;
let companyId: number;

beforeAll(async () => {
  admin = await ctx.signUp({ username: "platform-root" });
  await ctx.db.execute(sql`update users set is_platform_admin = true where id = ${admin.id}`);
  // Changing service keys needs a session that passed a second factor: the input is what is refused here.
  admin = await withSecondFactorSession(ctx, admin);
  const board = await ctx.board("Input Board Ltd");
  founder = board.founder;
  companyId = board.company.id;
});

const nul = "a\u0000b";
const megabyte = "x".repeat(1024 * 1024);
const overflowingIds = [2147483648, "2147483648", 4294967296, "4294967296", "99999999999999999999"];
const company = { name: "Acme", industry: "technology", location: "London", stage: "seed" };
const future = new Date("2026-09-01T10:00:00.000Z");

type Method = "get" | "post" | "put" | "patch" | "delete";
interface Case {
  name: string;
  method: Method;
  path: () => string;
  body?: () => unknown;
  as?: () => SignedUp | undefined;
  status: number;
}

function send(testCase: Case) {
  let pending = request(ctx.app)[testCase.method](testCase.path());
  const caller = (testCase.as ?? (() => founder))();
  if (caller) pending = pending.set("Authorization", caller.bearer);
  return testCase.body ? pending.send(testCase.body() as object) : pending;
}

const registration = (fields: Record<string, unknown>) => ({
  username: "fresh-user",
  email: "fresh@example.com",
  password: "secret-123",
  ...fields,
});
const meeting = (fields: Record<string, unknown>) => ({ category: "Meeting", content: JSON.stringify(meetingContent(future, fields)) });
const service = (fields: Record<string, unknown>) => ({ serviceName: "Custom", serviceKey: "key-123456789", ...fields });

const nulCases: Case[] = [
  ...["username", "firstName", "lastName", "email", "password"].map((field) => ({
    name: `registration ${field}`,
    method: "post" as const,
    path: () => "/api/auth/register",
    body: () => registration({ [field]: nul }),
    as: () => undefined,
    status: 400,
  })),
  {
    name: "login username",
    method: "post",
    path: () => "/api/auth/login",
    body: () => ({ username: nul, password: "whatever" }),
    as: () => undefined,
    status: 400,
  },
  ...["name", "industry", "location", "stage", "description", "website", "invitationMessage"].flatMap((field): Case[] => [
    {
      name: `new company ${field}`,
      method: "post" as const,
      path: () => "/api/companies",
      body: () => ({ ...company, [field]: nul }),
      status: 400,
    },
    {
      name: `company settings ${field}`,
      method: "put" as const,
      path: () => `/api/companies/${companyId}`,
      body: () => ({ ...company, [field]: nul }),
      status: 400,
    },
  ]),
  ...["firstName", "lastName", "email", "password"].map((field) => ({
    name: `add member ${field}`,
    method: "post" as const,
    path: () => `/api/companies/${companyId}/members`,
    body: () => ({
      email: "new-member@example.com",
      firstName: "New",
      lastName: "Member",
      role: "member",
      password: "secret-123",
      [field]: nul,
    }),
    status: 400,
  })),
  {
    name: "invitation e-mail",
    method: "post",
    path: () => `/api/companies/${companyId}/members`,
    body: () => ({ email: nul, role: "member" }),
    status: 400,
  },
  ...["title", "location", "agenda"].map((field) => ({
    name: `meeting ${field}`,
    method: "post" as const,
    path: () => "/api/documents",
    body: () => meeting({ [field]: nul }),
    status: 400,
  })),
  { name: "meeting category", method: "post", path: () => "/api/documents", body: () => ({ ...meeting({}), category: nul }), status: 400 },
  ...["title", "location"].map((field) => ({
    name: `draft ${field}`,
    method: "post" as const,
    path: () => "/api/new-meeting",
    body: () => ({ title: "Draft", date: future.toISOString(), location: "HQ", [field]: nul }),
    status: 400,
  })),
  ...["serviceName", "serviceKey", "serviceUrl", "description"].map((field) => ({
    name: `platform service ${field}`,
    method: "post" as const,
    path: () => "/api/platform/settings",
    body: () => service({ [field]: nul }),
    as: () => admin,
    status: 400,
  })),
];

const idCases: Case[] = overflowingIds.flatMap((id): Case[] => [
  {
    name: `active company ${JSON.stringify(id)}`,
    method: "patch" as const,
    path: () => `/api/users/${founder.id}/active-company`,
    body: () => ({ companyId: id }),
    status: 400,
  },
  {
    name: `company link ${JSON.stringify(id)}`,
    method: "put" as const,
    path: () => `/api/users/${founder.id}`,
    body: () => ({ companyId: id }),
    status: 400,
  },
  {
    name: `role change companyId ${JSON.stringify(id)}`,
    method: "patch" as const,
    path: () => `/api/users/${admin.id}/role`,
    body: () => ({ role: "member", companyId: id }),
    status: 400,
  },
  {
    name: `member companyId ${JSON.stringify(id)}`,
    method: "post" as const,
    path: () => `/api/companies/${companyId}/members`,
    body: () => ({ email: "x@example.com", role: "member", companyId: id }),
    status: 400,
  },
  {
    name: `meeting participant ${JSON.stringify(id)}`,
    method: "post" as const,
    path: () => "/api/documents",
    body: () => meeting({ participants: [id] }),
    status: 400,
  },
]);

const pathIdCases: Case[] = ["2147483648", "4294967296", "99999999999999999999"].flatMap((id): Case[] => [
  { name: `document ${id}`, method: "get" as const, path: () => `/api/documents/${id}`, status: 404 },
  { name: `agenda ${id}`, method: "post" as const, path: () => `/api/meetings/${id}/generate-agenda`, status: 404 },
  { name: `calendar ${id}`, method: "get" as const, path: () => `/api/meetings/${id}/calendar.ics`, status: 404 },
  { name: `notification ${id}`, method: "post" as const, path: () => `/api/notifications/${id}/read`, status: 404 },
  {
    name: `platform service ${id}`,
    method: "put" as const,
    path: () => `/api/platform/settings/${id}`,
    body: () => ({ description: "x" }),
    as: () => admin,
    status: 404,
  },
  {
    name: `platform service delete ${id}`,
    method: "delete" as const,
    path: () => `/api/platform/settings/${id}`,
    as: () => admin,
    status: 404,
  },
]);

const sizeAndDateCases: Case[] = [
  {
    name: "a megabyte login username",
    method: "post",
    path: () => "/api/auth/login",
    body: () => ({ username: megabyte, password: "whatever" }),
    as: () => undefined,
    status: 400,
  },
  {
    name: "a megabyte login password",
    method: "post",
    path: () => "/api/auth/login",
    body: () => ({ username: founder.username, password: megabyte }),
    as: () => undefined,
    status: 400,
  },
  {
    name: "a megabyte registration password",
    method: "post",
    path: () => "/api/auth/register",
    body: () => registration({ password: megabyte }),
    as: () => undefined,
    status: 400,
  },
  {
    name: "a meeting in year 0000",
    method: "post",
    path: () => "/api/documents",
    body: () => meeting({ date: "0000-06-01T10:00:00.000Z", endDate: "0000-06-01T12:00:00.000Z" }),
    status: 400,
  },
  {
    name: "a meeting ending in year 10000",
    method: "post",
    path: () => "/api/documents",
    body: () => meeting({ date: "9999-12-31T23:00:00.000Z", endDate: "+010000-01-01T01:00:00.000Z" }),
    status: 400,
  },
  {
    name: "a draft in year 0000",
    method: "post",
    path: () => "/api/new-meeting",
    body: () => ({ title: "Draft", date: "0000-06-01T10:00:00.000Z" }),
    status: 400,
  },
  {
    name: "a draft ending in year 10000",
    method: "post",
    path: () => "/api/new-meeting",
    body: () => ({ title: "Draft", date: "9999-12-31T23:00:00.000Z" }),
    status: 400,
  },
];

async function rowCounts() {
  const result = await ctx.db.execute(
    sql`select (select count(*) from users)::int as users, (select count(*) from companies)::int as companies, (select count(*) from documents)::int as documents, (select count(*) from platform_services)::int as services, (select count(*) from invitations)::int as invitations`,
  );
  return (result as unknown as { rows: unknown[] }).rows[0];
}

describe.each([
  ["a NUL character in a text field", nulCases],
  ["an id beyond Postgres' integer range in a body", idCases],
  ["an id beyond Postgres' integer range in the path", pathIdCases],
  ["oversized credentials and impossible dates", sizeAndDateCases],
])("%s", (_label, cases) => {
  it.each(cases.map((testCase) => [testCase.name, testCase] as const))(
    "%s: refused with the JSON error body, nothing written",
    async (_name, testCase) => {
      const before = await rowCounts();
      const response = await send(testCase);
      expect({ status: response.status, body: response.body }).toMatchObject({
        status: testCase.status,
        body: { message: expect.any(String) },
      });
      expect(response.headers["content-type"]).toMatch(/application\/json/);
      expect(await rowCounts()).toEqual(before);
    },
  );
});
