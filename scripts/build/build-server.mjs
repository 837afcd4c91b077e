// Bundles the server into dist/server/index.js. Dependencies stay in node_modules.
import { build } from "esbuild";
import { serverBundleOptions } from "./server-bundle.mjs";

await build({ ...serverBundleOptions, entryPoints: ["server/src/index.ts"], outfile: "dist/server/index.js" });
console.log("built dist/server/index.js");
