import type { ApiErrorBody } from "@shared/api-error";
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

/**
 * The one request convention: JSON content-type only when there is a body,
 * the stored token as a bearer header when present, cookies included.
 * Resolves with the Response of a 2xx answer; throws ApiError otherwise.
 */
export async function apiRequest(method: string, url: string, body?: unknown): Promise<Response> {
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
