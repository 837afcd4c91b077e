import type { ApiErrorBody, ApiErrorCode } from "@shared/api-error";
import { pathOf, type AnswerOf, type Endpoint, type InputArgs, type InputOf } from "@shared/api/endpoint";
import { getAuthToken } from "@/lib/auth-token";

/**
 * A non-2xx answer. `message` is `${status}: ${body text || status text}`.
 * The parsed JSON body (the server's error body is `{message, errors?}`) is kept for forms.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly statusText: string;
  /** The parsed JSON body, or null when the body was empty or not JSON. */
  readonly body: unknown;

  constructor(status: number, statusText: string, bodyText: string) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = "ApiError";
    this.status = status;
    this.statusText = statusText;
    this.body = parseJson(bodyText);
  }

  /** The server's `message`, when the body carried one. */
  get serverMessage(): string | undefined {
    const body = this.body as Partial<ApiErrorBody> | null;
    return body && typeof body.message === "string" && body.message ? body.message : undefined;
  }

  /** The body's `code`, set on some errors so the client can act on the reason without reading the message. */
  get code(): ApiErrorCode | undefined {
    const body = this.body as Partial<ApiErrorBody> | null;
    return typeof body?.code === "string" ? body.code : undefined;
  }

  /** Field errors of a 400 (`errors: [{path, message}]`), or an empty list. */
  get fieldErrors(): { path: string; message: string }[] {
    const body = this.body as Partial<ApiErrorBody> | null;
    return Array.isArray(body?.errors) ? body.errors : [];
  }
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The server's message of an error, if it is an ApiError that carried one. */
export function serverMessageOf(error: unknown): string | undefined {
  return error instanceof ApiError ? error.serverMessage : undefined;
}

export async function throwIfResNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  const text = await response.text().catch(() => "");
  throw new ApiError(response.status, response.statusText, text);
}

/** Answers asked for before the app ran, by address, while `withEarlyAnswers` lends them. */
let earlyAnswers: Map<string, Promise<Response>> | undefined;

/** Drops answers nobody will read: cancelling a body ends its request. */
export function dropAnswers(answers: Record<string, Promise<Response>>): void {
  for (const answer of Object.values(answers)) answer.then((response) => response.body?.cancel()).catch(() => undefined);
}

/**
 * Runs `ask` with `answers` (GET requests the preload script sent, by address): a GET of one of those addresses made
 * while `ask` runs, synchronously, takes its answer instead of asking again (a query's fetch starts its request
 * synchronously). Answers not taken are dropped when `ask` returns, so none is read later, out of date.
 */
export function withEarlyAnswers(answers: Record<string, Promise<Response>>, ask: () => void): void {
  earlyAnswers = new Map(Object.entries(answers));
  try {
    ask();
  } finally {
    dropAnswers(Object.fromEntries(earlyAnswers));
    earlyAnswers = undefined;
  }
}

/**
 * The one request convention: JSON content-type only when there is a body,
 * the stored token as a bearer header when present, cookies included.
 * Resolves with the Response of a 2xx answer; throws ApiError otherwise.
 */
export async function apiRequest(method: string, url: string, body?: unknown): Promise<Response> {
  const early = method === "GET" && body === undefined ? earlyAnswers?.get(url) : undefined;
  if (early) {
    earlyAnswers!.delete(url);
    // One that did not get through (a network error) is simply asked again.
    const response = await early.catch(() => undefined);
    if (response) {
      await throwIfResNotOk(response);
      return response;
    }
  }
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const token = getAuthToken();
  if (token) headers.Authorization = `Bearer ${token}`;

  const response = await fetch(url, {
    method,
    headers,
    body: body !== undefined ? JSON.stringify(body) : undefined,
    credentials: "include",
  });
  await throwIfResNotOk(response);
  return response;
}

/** The JSON of a response; `undefined` for an empty body (204). */
export async function readJson<T>(response: Response): Promise<T> {
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** `apiRequest` and then the JSON of the answer. */
export async function apiJson<T>(method: string, url: string, body?: unknown): Promise<T> {
  return readJson<T>(await apiRequest(method, url, body));
}

/**
 * Calls an endpoint through its declaration (shared/api/): the path, its parameters and the query are put
 * together here, and the answer is typed by the declaration, so a changed answer is a type error in the screen
 * that reads it. This is the only place client code names an `/api/` address.
 */
export async function callApi<E extends Endpoint>(endpoint: E, ...[input]: InputArgs<E>): Promise<AnswerOf<E>> {
  const call = () => apiJson<AnswerOf<E>>(endpoint.method, apiUrl(endpoint, ...([input] as AddressArgs<E>)), input?.body);
  try {
    return await call();
  } catch (error) {
    const prompt = freshProofPrompt;
    if (!prompt || !isReauthRequired(error)) throw error;
    // Cancelled: the call fails with the server's refusal, as if nobody had asked.
    await prompt().catch(() => {
      throw error;
    });
    // Once: a second refusal is the caller's to show.
    return call();
  }
}

// Written out: a value imported from the error body's module would bring the validation library into the first load.
const reauthRequiredCode: ApiErrorCode = "reauth_required";

/** Whether an error is the server asking for a fresh proof of the password (and second factor) before a security change. */
export function isReauthRequired(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401 && error.code === reauthRequiredCode;
}

/** Asks the signed-in user to prove again who they are: resolves once they have, rejects when they cancel. */
export type FreshProofPrompt = () => Promise<void>;
let freshProofPrompt: FreshProofPrompt | undefined;

/**
 * Every call answered 401 `reauth_required` asks `prompt` for a fresh proof and is then made again, once; the
 * signed-in app sets it (its dialog asks for the password), and takes it back with `undefined`.
 */
export function setFreshProofPrompt(prompt: FreshProofPrompt | undefined): void {
  freshProofPrompt = prompt;
}

/** What an address is made of: the path's parameters and the query; a body, if any, travels apart. */
type AddressOf<E extends Endpoint> = Omit<InputOf<E>, "body">;
type AddressArgs<E extends Endpoint> = Record<never, never> extends AddressOf<E> ? [input?: AddressOf<E>] : [input: AddressOf<E>];

/** The address of an endpoint, for a link, a download or a request made another way (an upload with progress). */
export function apiUrl<E extends Endpoint>(endpoint: E, ...[input]: AddressArgs<E>): string {
  return pathOf(endpoint, input?.params as Record<string, string | number> | undefined, input?.query as object | undefined);
}
