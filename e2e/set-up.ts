import { randomBytes } from "node:crypto";
import * as OTPAuth from "otpauth";
import { inject } from "vitest";
import { meetingCategory, meetingEndFrom, meetingFileType } from "../shared/meeting-model";

// What a flow needs in place before its browser opens, made through the API: accounts, companies, boards, meetings.

export const baseURL = () => inject("baseURL");

/** Where the API set-up helpers below send their calls: the run's server, unless a file runs a server of its own. */
let apiOrigin: string | undefined;
const apiBase = () => apiOrigin ?? baseURL();
/** For a file that runs a server of its own: the set-up helpers call it from now on. */
export function useApiOrigin(origin: string): void {
  apiOrigin = origin;
}
export const platformAdmin = () => inject("platformAdmin");

export function uniqueName(prefix: string): string {
  return `${prefix}${randomBytes(3).toString("hex")}`;
}

/** What the sign-in form asks for. */
export interface Credentials {
  username: string;
  password: string;
}

/** The password the set-up helpers give an account unless told otherwise. */
export const setUpPassword = "board-password-1";

export interface Account {
  username: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  token: string;
  id: number;
}

/** Registers through the API (for flows whose subject is not registration). */
export async function registerAccount(
  fields: Partial<Omit<Account, "token" | "id">> & { invitationToken?: string } = {},
): Promise<Account> {
  const username = fields.username ?? uniqueName("user");
  const body = {
    username,
    email: fields.email ?? `${username}@example.com`,
    password: fields.password ?? setUpPassword,
    firstName: fields.firstName ?? "Casey",
    lastName: fields.lastName ?? "Director",
  };
  const response = await fetch(`${apiBase()}/api/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...body, invitationToken: fields.invitationToken }),
  });
  if (response.status !== 201) throw new Error(`register failed: ${response.status} ${await response.text()}`);
  const json = (await response.json()) as { token: string; id: number };
  return { ...body, token: json.token, id: json.id };
}

/** Calls the API as an account (test set-up only). */
export async function apiAs<T>(account: { token: string }, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${apiBase()}${path}`, {
    method,
    headers: { Authorization: `Bearer ${account.token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} failed: ${response.status} ${await response.text()}`);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Signs in through the API and answers the session token (test set-up only). */
export async function logInThroughApi(credentials: Credentials): Promise<{ token: string }> {
  const response = await fetch(`${apiBase()}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: credentials.username, password: credentials.password }),
  });
  if (!response.ok) throw new Error(`login failed: ${response.status}`);
  return { token: ((await response.json()) as { token: string }).token };
}

/** A company of the account's own, made its active company (so the account lands on /dashboard). */
export async function createActiveCompany(account: Account, fields: { name: string; location: string }): Promise<{ id: number }> {
  const company = await apiAs<{ id: number }>(account, "POST", "/api/companies", {
    name: fields.name,
    industry: "Technology",
    location: fields.location,
    stage: "seed",
  });
  await apiAs(account, "PUT", `/api/users/${account.id}`, { companyId: company.id });
  return company;
}

export interface Board {
  founder: Account;
  companyId: number;
  members: { id: number; firstName: string; lastName: string; email: string }[];
}

/**
 * Invites `person` to the founder's company and has them accept by registering with the link's token, as the invitation
 * page does (set-up only): their username is their e-mail address and their password "board-password-1".
 */
export async function joinByInvitation(
  founder: Account,
  companyId: number,
  person: { email: string; firstName: string; lastName: string; role: "admin" | "member" | "observer" },
): Promise<Account> {
  const invited = await apiAs<{ inviteUrl: string }>(founder, "POST", `/api/companies/${companyId}/members`, {
    email: person.email,
    role: person.role,
  });
  return registerAccount({
    username: person.email,
    email: person.email,
    firstName: person.firstName,
    lastName: person.lastName,
    invitationToken: new URL(invited.inviteUrl).searchParams.get("token") ?? "",
  });
}

/** What a board member who joined by invitation signs in with: their e-mail address and the set-up password. */
export function memberCredentials(member: { email: string }): Credentials {
  return { username: member.email, password: setUpPassword };
}

/** A session of a board member who joined by invitation, through the API (test set-up only). */
export function memberSession(member: { email: string }): Promise<{ token: string }> {
  return logInThroughApi(memberCredentials(member));
}

/** The authenticator app of a secret, as the server's set-up describes it (SHA-1, 6 digits, 30 s). */
export const authenticatorApp = (secret: string) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" });

const totpStepMs = 30_000;
/** The authenticator's time step of a moment (the server runs on this machine's clock). */
export const totpStep = (timestamp = Date.now()) => Math.floor(timestamp / totpStepMs);
/** How long a code may take from here to the server's check: its step stays within the server's window that long. */
const codeTransitMs = 10_000;

/**
 * The code of the earliest step the server surely takes after `usedStep` (it takes each step's code once, and
 * codes of one step either side of its own), and that step. The server's clock moves on while the code travels,
 * so a past step is chosen only with `codeTransitMs` to spare. Waits only when the step after the used one is
 * still two steps ahead, until it is the next one. Usable in hooks too (no expect.poll).
 */
export async function codeAfter(app: OTPAuth.TOTP, usedStep = -Infinity): Promise<{ code: string; step: number }> {
  const step = Math.max(usedStep + 1, totpStep(Date.now() - totpStepMs + codeTransitMs));
  // The step turns acceptable when the clock enters the one before it (the wait is never longer than a step).
  while (totpStep() + 1 < step) await new Promise((resolve) => setTimeout(resolve, (step - 1) * totpStepMs - Date.now() + 50));
  return { code: app.generate({ timestamp: step * totpStepMs }), step };
}

/**
 * Turns the account's authenticator app on through the API (set-up only), after the fresh proof of the password a
 * security change needs; the session that confirmed it counts as having passed it. Answers the app and the code used.
 */
export async function authenticatorThroughApi(account: {
  token: string;
  password: string;
}): Promise<{ app: OTPAuth.TOTP; used: string; usedStep: number; recoveryCodes: string[] }> {
  await apiAs(account, "POST", "/api/auth/reauth", { password: account.password });
  const { secret } = await apiAs<{ secret: string }>(account, "POST", "/api/auth/totp/setup");
  const app = authenticatorApp(secret);
  const { code: used, step: usedStep } = await codeAfter(app);
  const { recoveryCodes } = await apiAs<{ recoveryCodes: string[] }>(account, "POST", "/api/auth/totp/confirm", { code: used });
  return { app, used, usedStep, recoveryCodes };
}

/** A founder with an active company and three board members who joined by invitation, set up through the API (password "board-password-1"). */
export async function boardWithMembers(): Promise<Board> {
  const founder = await registerAccount({ firstName: "Morgan", lastName: "Chair" });
  const company = await createActiveCompany(founder, { name: uniqueName("Meeting Board "), location: "London, United Kingdom" });
  const members: Board["members"] = [];
  for (const [firstName, lastName] of [
    ["Avery", "Director"],
    ["Blake", "Trustee"],
    ["Casey", "Advisor"],
  ] as const) {
    const email = `${uniqueName(firstName.toLowerCase())}@example.com`;
    const joined = await joinByInvitation(founder, company.id, { email, firstName, lastName, role: "member" });
    members.push({ id: joined.id, firstName, lastName, email });
  }
  return { founder, companyId: company.id, members };
}

/**
 * A meeting of the board's company, created through the documents API as the founder (set-up only):
 * two hours long (shared/meetings.ts), pending, with every member invited unless `participants` says who; with
 * `notify`, the participants are told (in the app and by mail), as the Schedule meeting form does unless unticked.
 */
export async function scheduleMeetingThroughApi(
  board: Board,
  meeting: { title: string; start: Date; participants?: readonly { id: number }[]; location?: string; agenda?: string; notify?: boolean },
): Promise<{ id: number }> {
  return apiAs<{ id: number }>(board.founder, "POST", "/api/documents", {
    category: meetingCategory,
    fileType: meetingFileType,
    sendNotifications: meeting.notify,
    content: JSON.stringify({
      type: "meeting",
      title: meeting.title,
      date: meeting.start.toISOString(),
      endDate: meetingEndFrom(meeting.start).toISOString(),
      location: meeting.location ?? "Boardroom, 1 King Street",
      status: "pending",
      participants: (meeting.participants ?? board.members).map((member) => String(member.id)),
      agenda: meeting.agenda ?? "1. Call to order and quorum (5 min)",
    }),
  });
}
