// The small board `npm run lighthouse` measures, made through the HTTP API as the app itself would make it: a founder
// with a company of their own, two directors who joined by invitation and one still invited, three papers, five
// resolutions waiting for votes and one meeting next week whose five agenda items carry those papers and resolutions.
import { randomBytes } from "node:crypto";
import { meetingCategory, meetingEndFrom, meetingFileType } from "../../shared/meeting-model";

const password = "board-password-1";
const day = 24 * 60 * 60 * 1000;

export interface MeasuredBoard {
  /** The founder's session token. */
  token: string;
  companyId: number;
  meetingId: number;
}

async function api<T>(baseURL: string, method: string, path: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(`${baseURL}${path}`, {
    method,
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

function register(baseURL: string, person: { email: string; firstName: string; lastName: string; invitationToken?: string }) {
  return api<{ token: string; id: number }>(baseURL, "POST", "/api/auth/register", {
    username: person.email,
    password,
    ...person,
  });
}

export async function seedMeasuredBoard(baseURL: string): Promise<MeasuredBoard> {
  const handle = `lighthouse${randomBytes(3).toString("hex")}`;
  const founder = await register(baseURL, { email: `${handle}@example.com`, firstName: "Casey", lastName: "Director" });
  const as = <T>(method: string, path: string, body: unknown) => api<T>(baseURL, method, path, body, founder.token);
  const company = await as<{ id: number }>("POST", "/api/companies", {
    name: "Lighthouse Ltd",
    industry: "Technology",
    location: "London, United Kingdom",
    stage: "seed",
  });
  await as("PUT", `/api/users/${founder.id}`, { companyId: company.id });

  const invite = (email: string) => as<{ inviteUrl: string }>("POST", `/api/companies/${company.id}/members`, { email, role: "member" });
  const directors: { id: number }[] = [];
  for (const [firstName, lastName] of [
    ["Avery", "Chair"],
    ["Blake", "Trustee"],
  ] as const) {
    const email = `${firstName.toLowerCase()}.${handle}@example.com`;
    const invitationToken = new URL((await invite(email)).inviteUrl).searchParams.get("token") ?? "";
    directors.push(await register(baseURL, { email, firstName, lastName, invitationToken }));
  }
  await invite(`drew.${handle}@example.com`);

  const papers: { id: number }[] = [];
  for (const [name, category] of [
    ["Management accounts, Q3", "Financial"],
    ["Budget 2027", "Financial"],
    ["Data protection policy", "Legal"],
  ] as const) {
    papers.push(await as<{ id: number }>("POST", "/api/documents", { name, category, content: `${name}: the paper the board reads.` }));
  }

  const resolutions: { id: number }[] = [];
  for (const [n, title] of [
    "Approve the Q3 management accounts",
    "Adopt the 2027 budget",
    "Appoint the auditors",
    "Renew the office lease",
    "Adopt the data protection policy",
  ].entries()) {
    resolutions.push(
      await as<{ id: number }>("POST", "/api/resolutions", {
        title,
        description: `That the board resolves to ${title.toLowerCase()}.`,
        type: "Ordinary",
        deadline: new Date(Date.now() + (n + 3) * day).toISOString(),
      }),
    );
  }

  const start = new Date(Date.now() + 7 * day);
  const meeting = await as<{ id: number }>("POST", "/api/documents", {
    category: meetingCategory,
    fileType: meetingFileType,
    content: JSON.stringify({
      type: "meeting",
      title: "Quarterly board meeting",
      date: start.toISOString(),
      endDate: meetingEndFrom(start).toISOString(),
      location: "Boardroom, 1 King Street",
      status: "pending",
      participants: directors.map((director) => String(director.id)),
      agenda: "1. Call to order and quorum (5 min)",
    }),
  });
  const [accounts, budget, policy] = papers;
  const [approveAccounts, adoptBudget, appointAuditors, renewLease, adoptPolicy] = resolutions;
  await as("PUT", `/api/meetings/${meeting.id}/agenda`, {
    items: [
      { title: "Call to order and quorum", durationMinutes: 5, purpose: "noting", presenterId: founder.id },
      {
        title: "Q3 management accounts",
        durationMinutes: 20,
        purpose: "decision",
        documentIds: [accounts!.id],
        resolutionIds: [approveAccounts!.id],
      },
      { title: "Budget 2027", durationMinutes: 30, purpose: "decision", documentIds: [budget!.id], resolutionIds: [adoptBudget!.id] },
      { title: "Audit and premises", durationMinutes: 15, purpose: "decision", resolutionIds: [appointAuditors!.id, renewLease!.id] },
      { title: "Data protection", durationMinutes: 10, purpose: "discussion", documentIds: [policy!.id], resolutionIds: [adoptPolicy!.id] },
    ].map((item) => ({ presenterId: directors[0]!.id, ...item })),
  });
  return { token: founder.token, companyId: company.id, meetingId: meeting.id };
}
