// Bundles the server into dist/server/index.js, and its workers beside it (dist/server/pdf-worker.js and paper-text-worker.js, where the
// server looks for it). Dependencies stay in node_modules.
import { build } from "esbuild";
import { pdfWorkerEntry, serverBundleOptions } from "./server-bundle.mjs";

await build({
  ...serverBundleOptions,
  entryPoints: { index: "server/src/index.ts", ...pdfWorkerEntry },
  outdir: "dist/server",
});
console.log("built dist/server/index.js and its workers (pdf-worker.js, paper-text-worker.js)");
