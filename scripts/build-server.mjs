// Bundles the server into dist/server/index.js (Node 20 does not run TypeScript). Dependencies stay in node_modules.
import { build } from "esbuild";

await build({
  entryPoints: ["server/src/index.ts"],
  outfile: "dist/server/index.js",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
console.log("built dist/server/index.js");
