import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import type { Server } from "node:http";
import { useTestContext } from "../testing/test-context";
import { createHttpServer } from "./http-server";

const ctx = useTestContext();
let server: Server;
let port: number;

beforeAll(async () => {
  server = createHttpServer(ctx.app, ctx.deps.logger);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends bytes as they are (no client library would send these) and reads the answer until the server closes. */
function sendRaw(payload: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const finish = () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const split = text.indexOf("\r\n\r\n");
      if (split < 0) return reject(new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
      const [statusLine = "", ...headerLines] = text.slice(0, split).split("\r\n");
      const headers = Object.fromEntries(
        headerLines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: text.slice(split + 4) });
    };
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("close", finish);
    // The server stops reading an oversized request and closes: what was already answered still counts.
    socket.on("error", () => undefined);
    socket.setTimeout(10_000, () => socket.destroy(new Error("no answer within 10 s")));
    socket.write(payload);
  });
}

function expectJsonRefusal(response: RawResponse, status: number) {
  expect(response.status).toBe(status);
  expect(response.headers["content-type"]).toMatch(/^application\/json/);
  expect(response.headers.connection).toBe("close");
  expect(Number(response.headers["content-length"])).toBe(Buffer.byteLength(response.body));
  expect(JSON.parse(response.body)).toEqual({ message: expect.any(String) });
}

describe("the HTTP server", () => {
  it("serves the app", async () => {
    const response = await sendRaw("GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    expect(response.status).toBe(200);
    expect(response.body).toContain('"status":"ok"');
  });

  it("answers a 20 KB URL with 431 and the JSON error body", async () => {
    const response = await sendRaw(`GET /api/${"a".repeat(20 * 1024)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expectJsonRefusal(response, 431);
    expect(JSON.parse(response.body)).toEqual({ message: "Request headers are too large" });
  });

  it("answers a 1 MB header, or a thousand headers, with 431 JSON", async () => {
    expectJsonRefusal(await sendRaw(`GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${"b".repeat(1024 * 1024)}\r\n\r\n`), 431);
    const many = Array.from({ length: 1000 }, (_, index) => `X-Header-${index}: value\r\n`).join("");
    expectJsonRefusal(await sendRaw(`GET /api/health HTTP/1.1\r\nHost: localhost\r\n${many}\r\n`), 431);
  });

  it("answers bad framing with 400 JSON", async () => {
    expectJsonRefusal(await sendRaw("HELLO THERE\r\n\r\n"), 400);
    expectJsonRefusal(await sendRaw("POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Length: many\r\n\r\n{}"), 400);
    expectJsonRefusal(
      await sendRaw("POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
      400,
    );
    expect(JSON.parse((await sendRaw("GET / HTTP/9.9\r\n\r\n")).body)).toEqual({ message: "Malformed HTTP request" });
  });

  it("logs the parser's code, never the request it refused", async () => {
    const token = "parser-refused-token-123";
    await sendRaw(`GET /api/health HTTP/1.1\r\nAuthorization: Bearer ${token}\r\nX-Big: ${"c".repeat(32 * 1024)}\r\n\r\n`);
    const lines = ctx.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({ code: "HPE_HEADER_OVERFLOW", status: 431, msg: "the HTTP parser refused a request" }),
    );
    expect(ctx.logs.join("\n")).not.toContain(token);
  });
});

describe("a request without a Host header", () => {
  it("is refused over HTTP/1.1 with 400 and the JSON error body, and the connection is closed", async () => {
    const response = await sendRaw("GET /api/health HTTP/1.1\r\n\r\n");
    expectJsonRefusal(response, 400);
    expect(JSON.parse(response.body)).toEqual({ message: "A Host header is required" });
  });

  it("is refused whatever its method and path, a body included", async () => {
    const response = await sendRaw("POST /api/auth/login HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
    expectJsonRefusal(response, 400);
    expect(JSON.parse(response.body)).toEqual({ message: "A Host header is required" });
  });

  it("is served over HTTP/1.0, which has no Host header", async () => {
    const response = await sendRaw("GET /api/health HTTP/1.0\r\n\r\n");
    expect(response.status).toBe(200);
    expect(response.body).toContain('"status":"ok"');
  });
});
