import { STATUS_CODES, createServer, type RequestListener, type Server } from "node:http";
import type { Duplex } from "node:stream";
import type { Logger } from "pino";

/** What Node's HTTP parser refuses before Express sees a request, and how we answer it. */
function parserRefusal(code: string | undefined): { status: number; message: string } {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return { status: 431, message: "Request headers are too large" };
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return { status: 413, message: "Request is too large" };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { status: 408, message: "Request timed out" };
    default:
      return { status: 400, message: "Malformed HTTP request" };
  }
}

const missingHostMessage = "A Host header is required";

/**
 * The HTTP server for the app, used by index.ts and the tests. A request Node's parser refuses (an oversized URL or
 * header, bad framing) gets the API's JSON error body and `Connection: close`, instead of Node's empty plain text.
 * So does an HTTP/1.1 request without a Host header: Node's own check (`requireHostHeader`) answers a bare 400,
 * so it is off and the same refusal is made here.
 */
export function createHttpServer(app: RequestListener, logger: Logger): Server {
  const server = createServer({ requireHostHeader: false }, (req, res) => {
    if (req.httpVersionMajor === 1 && req.httpVersionMinor === 1 && req.headers.host === undefined) {
      logger.info({ status: 400 }, "a request without a Host header was refused");
      const body = JSON.stringify({ message: missingHostMessage });
      res.writeHead(400, {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Length": Buffer.byteLength(body),
        "Cache-Control": "no-store",
        Connection: "close",
      });
      res.end(body);
      return;
    }
    app(req, res);
  });
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex & { bytesWritten?: number }) => {
    // A reset connection, or one that already got (part of) a response, cannot take an answer.
    if (error.code === "ECONNRESET" || !socket.writable || (socket.bytesWritten ?? 0) > 0) {
      socket.destroy();
      return;
    }
    const { status, message } = parserRefusal(error.code);
    // The code only: the error's rawPacket holds what was sent, headers (and tokens) included.
    logger.info({ code: error.code, status }, "the HTTP parser refused a request");
    const body = JSON.stringify({ message });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        "Content-Type: application/json; charset=utf-8\r\n" +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        "Cache-Control: no-store\r\n" +
        "Connection: close\r\n" +
        `\r\n${body}`,
      // The client may keep its side open: once the answer is out, the connection is done.
      () => socket.destroy(),
    );
  });
  return server;
}
