import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { RequestHandler } from "express";

/** A built script or style sheet: one name (the bundler's `name-hash`), no folder, no dot but the extension's. */
const assetPath = /^\/([\w-]+\.(js|css))$/;

/**
 * Serves the build's scripts and style sheets from the Brotli copies the build wrote beside them (`app-1a2b.js.br`),
 * to a browser that takes Brotli: at the highest quality, made once per build, they are about a sixth smaller than
 * what the server compresses on the fly with gzip, and a phone on a slow link waits for every kilobyte. Anything else
 * (another file, a browser without Brotli, an asset without a copy) goes on to the static files. The directory is
 * read once: a build's assets do not change while the server runs, and only a name listed there is ever opened.
 */
export function precompressedAssets(assetsDir: string, maxAge: string): RequestHandler {
  // A build without assets has no copies either: every request goes on to the static files.
  const compressed = new Set(existsSync(assetsDir) ? readdirSync(assetsDir).filter((name) => name.endsWith(".br")) : []);
  return (req, res, next) => {
    const match = assetPath.exec(req.path);
    if (!match || (req.method !== "GET" && req.method !== "HEAD")) return next();
    const copy = `${match[1]}.br`;
    if (!compressed.has(copy)) return next();
    // The answer depends on what the browser takes, for caches between.
    res.vary("Accept-Encoding");
    if (!req.acceptsEncodings("br")) return next();
    res.type(match[2]!);
    res.setHeader("Content-Encoding", "br");
    res.sendFile(join(assetsDir, copy), { immutable: true, maxAge }, (error) => error && next(error));
  };
}
