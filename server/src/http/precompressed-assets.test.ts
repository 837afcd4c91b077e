import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { get, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { Writable } from "node:stream";
import { join } from "node:path";
import { brotliCompressSync } from "node:zlib";
import express from "express";
import request from "supertest";
import { createLogger } from "../logger";
import { errorHandler } from "./errors";
import { precompressedAssets } from "./precompressed-assets";

const script = "export const answer = 42;\n".repeat(50);

/** A build's assets folder (one script with its Brotli copy, one without, and a copy beside no script) and a file outside it. */
function builtApp() {
  const root = mkdtempSync(join(tmpdir(), "quorum-assets-"));
  const assets = join(root, "assets");
  mkdirSync(assets);
  writeFileSync(join(assets, "index-Ab1_x-9.js"), script);
  writeFileSync(join(assets, "index-Ab1_x-9.js.br"), brotliCompressSync(script));
  writeFileSync(join(assets, "plain-Zz9.css"), "body{}");
  writeFileSync(join(root, "secret.js.br"), brotliCompressSync("not an asset"));
  const app = express();
  app.use("/assets", precompressedAssets(assets, "1y"));
  app.use("/assets", express.static(assets, { fallthrough: false }));
  return app;
}

describe("the build's Brotli copies of its scripts", () => {
  it("sends a script's copy, marked br and kept for good, to a browser that takes Brotli", async () => {
    // The client decodes the body by its Content-Encoding: Brotli here.
    const response = await request(builtApp()).get("/assets/index-Ab1_x-9.js").set("Accept-Encoding", "gzip, deflate, br");
    expect(response.status).toBe(200);
    expect(response.headers["content-encoding"]).toBe("br");
    expect(response.headers["content-type"]).toMatch(/javascript/);
    expect(response.headers["vary"]).toMatch(/Accept-Encoding/);
    expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(response.text).toBe(script);
    expect(Number(response.headers["content-length"])).toBe(brotliCompressSync(script).length);
  });

  it("sends the script itself to a browser without Brotli, and a file without a copy as it is", async () => {
    const app = builtApp();
    const plain = await request(app).get("/assets/index-Ab1_x-9.js").set("Accept-Encoding", "gzip");
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers["vary"]).toMatch(/Accept-Encoding/);
    expect(plain.text).toBe(script);

    const style = await request(app).get("/assets/plain-Zz9.css").set("Accept-Encoding", "br");
    expect(style.status).toBe(200);
    expect(style.headers["content-encoding"]).toBeUndefined();
  });

  it("opens no file but a listed copy: a path out of the folder is left to the static files, which refuse it", async () => {
    const app = builtApp();
    for (const path of ["/assets/..%2Fsecret.js", "/assets/../secret.js", "/assets/sub/index-Ab1_x-9.js"]) {
      const response = await request(app).get(path).set("Accept-Encoding", "br");
      expect(response.headers["content-encoding"], path).toBeUndefined();
      expect(response.status, path).not.toBe(200);
    }
  });

  it("starts without an assets folder, and sends nothing from it", async () => {
    const app = express();
    app.use("/assets", precompressedAssets(join(mkdtempSync(join(tmpdir(), "quorum-no-assets-")), "assets"), "1y"));
    app.use((_req, res) => res.status(404).end());
    const response = await request(app).get("/assets/index-Ab1_x-9.js").set("Accept-Encoding", "br");
    expect(response.status).toBe(404);
  });

  it("lets a browser that leaves mid-file go without an error in the log", async () => {
    const root = mkdtempSync(join(tmpdir(), "quorum-large-asset-"));
    // Large enough to be still on its way when the browser hangs up; the server sends the copy's bytes as they are.
    writeFileSync(join(root, "large-Qq1.js.br"), randomBytes(32 * 1024 * 1024));
    const lines: string[] = [];
    const logger = createLogger({ destination: new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) }) });
    const app = express();
    app.use((req, _res, next) => ((req.log = logger), next()));
    app.use("/assets", precompressedAssets(root, "1y"));
    app.use(errorHandler);
    const server: Server = await new Promise((resolve) => {
      const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
    });
    try {
      const { port } = server.address() as AddressInfo;
      await new Promise<void>((resolve, reject) => {
        const asking = get({ port, host: "127.0.0.1", path: "/assets/large-Qq1.js", headers: { "Accept-Encoding": "br" } }, (response) => {
          expect(response.statusCode).toBe(200);
          asking.destroy();
          resolve();
        });
        asking.on("error", (error) => ((error as { code?: string }).code === "ECONNRESET" ? resolve() : reject(error)));
      });
      await vi.waitFor(() => expect(lines.join("")).toContain("the client went away"), { timeout: 5_000 });
      expect(lines.map((line) => (JSON.parse(line) as { level: number }).level)).toEqual([30]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
