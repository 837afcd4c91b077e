// A build step: a Brotli copy (`name-hash.js.br`) beside each built script and style sheet, which the server sends to a
// browser that takes Brotli (server/src/http/precompressed-assets.ts). At its highest quality, too slow to compress on
// each request, it is about a sixth smaller than the server's gzip.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants } from "node:zlib";
import type { Plugin } from "vite";

const compress = promisify(brotliCompress);

export function brotliAssets(): Plugin {
  return {
    name: "quorum:brotli-assets",
    apply: "build",
    async writeBundle(options, bundle) {
      const outDir = options.dir!;
      const files = Object.values(bundle).filter((file) => /^assets\/[\w-]+\.(js|css)$/.test(file.fileName));
      await Promise.all(
        files.map(async (file) => {
          const source = file.type === "chunk" ? file.code : file.source;
          const compressed = await compress(typeof source === "string" ? Buffer.from(source) : source, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            },
          });
          await writeFile(join(outDir, `${file.fileName}.br`), compressed);
        }),
      );
    },
  };
}
