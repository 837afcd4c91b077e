import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Express } from "express";

/** One event as the stream sent it. */
export interface ReceivedEvent {
  id: string;
  event: string;
  data: unknown;
}

/** An app listening on a free port of 127.0.0.1 (supertest answers only once a response ends; a stream never does). */
export async function listenOn(app: Express): Promise<{ url: string; connections(): Promise<number>; close(): Promise<void> }> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () =>
      new Promise<number>((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count)))),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface OpenedStream {
  status: number;
  /** The JSON error body when the stream was refused. */
  body?: unknown;
  /** The Retry-After header of a refusal that has one. */
  retryAfter?: string;
  events: ReceivedEvent[];
  /** Comment lines received (heartbeats). */
  comments: number;
  /** Resolves once the server has ended the stream. */
  ended: Promise<void>;
  /** Waits (up to `timeoutMs`) for an event that matches; rejects naming what did arrive. */
  next(matches: (event: ReceivedEvent) => boolean, timeoutMs?: number): Promise<ReceivedEvent>;
  close(): void;
}

/** Opens `GET /api/events` with a bearer token (or none) and parses what arrives, as a browser's EventSource would. */
export function openEventStream(baseUrl: string, bearer?: string, headers: Record<string, string> = {}): Promise<OpenedStream> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${baseUrl}/api/events`,
      { headers: { ...(bearer ? { Authorization: bearer } : {}), ...headers } },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status !== 200) {
          let text = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => (text += chunk));
          response.on("end", () =>
            resolve({
              status,
              body: text ? JSON.parse(text) : undefined,
              retryAfter: response.headers["retry-after"],
            } as OpenedStream),
          );
          return;
        }
        const events: ReceivedEvent[] = [];
        const waiters = new Set<() => void>();
        let buffer = "";
        let comments = 0;
        let endedResolve: () => void;
        const ended = new Promise<void>((done) => (endedResolve = done));
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          buffer += chunk;
          let boundary: number;
          while ((boundary = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, boundary);
            buffer = buffer.slice(boundary + 2);
            const fields: Record<string, string> = {};
            for (const line of block.split("\n")) {
              if (line.startsWith(":")) comments += 1;
              const colon = line.indexOf(": ");
              if (colon > 0) fields[line.slice(0, colon)] = line.slice(colon + 2);
            }
            if (fields.event) events.push({ id: fields.id ?? "", event: fields.event, data: JSON.parse(fields.data ?? "null") });
          }
          for (const wake of waiters) wake();
        });
        response.on("end", () => endedResolve());
        response.on("close", () => endedResolve());
        const stream: OpenedStream = {
          status,
          events,
          get comments() {
            return comments;
          },
          ended,
          next(matches, timeoutMs = 5000) {
            return new Promise((found, fail) => {
              let seen = 0;
              const check = () => {
                for (; seen < events.length; seen += 1) {
                  if (matches(events[seen]!)) {
                    waiters.delete(check);
                    clearTimeout(timer);
                    return found(events[seen]!);
                  }
                }
              };
              const timer = setTimeout(() => {
                waiters.delete(check);
                fail(new Error(`no matching event within ${timeoutMs} ms; received ${JSON.stringify(events)}`));
              }, timeoutMs);
              waiters.add(check);
              check();
            });
          },
          close: () => request.destroy(),
        };
        resolve(stream);
      },
    );
    request.on("error", reject);
  });
}

/** Whether a declaration answers an event stream, which never ends: walkers read only its status. */
export function answersEventStream(endpoint: { responses: Record<number, unknown> } | undefined): boolean {
  const success = endpoint?.responses[200];
  return typeof success === "object" && success !== null && (success as { contentType?: string }).contentType === "text/event-stream";
}

/** A GET whose answer may never end: its status, and its body when it is not a stream (the stream is closed at once). */
export async function getStatusOf(
  app: Express,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; headers: http.IncomingHttpHeaders; body: unknown }> {
  const server = await listenOn(app);
  try {
    return await new Promise((resolve, reject) => {
      const request = http.get(`${server.url}${path}`, { headers }, (response) => {
        const status = response.statusCode ?? 0;
        if (String(response.headers["content-type"]).startsWith("text/event-stream")) {
          request.destroy();
          return resolve({ status, text: "", headers: response.headers, body: undefined });
        }
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => {
          const json = String(response.headers["content-type"]).startsWith("application/json");
          resolve({ status, text, headers: response.headers, body: json ? JSON.parse(text) : undefined });
        });
      });
      request.on("error", reject);
    });
  } finally {
    await server.close();
  }
}
