import { basename, dirname, resolve } from "node:path";
import type { Plugin } from "vite";
import type { Endpoint } from "../../shared/api/endpoint.ts";

/**
 * In the client's build, a module of endpoint declarations (shared/api/<name>.ts) becomes what the client reads
 * of it: each endpoint's method and path. The declarations' schemas describe answers the server checks in tests
 * and the OpenAPI document lists; in the browser they would only bring the validation library (about 27 KB
 * gzip) onto pages that validate nothing, the dashboard's first load among them. The types still come from the
 * real module, so a changed answer is a type error in the screen that reads it.
 */
export function apiStubs(options: { apiDir: string; modules: Record<string, Record<string, Endpoint>> }): Plugin {
  const apiDir = resolve(options.apiDir);
  return {
    name: "quorum-api-stubs",
    apply: "build",
    enforce: "pre",
    load(id) {
      const file = id.split("?")[0]!;
      if (dirname(file) !== apiDir || !file.endsWith(".ts")) return null;
      const declarations = options.modules[basename(file, ".ts")];
      if (!declarations) return null;
      return stubOf(declarations);
    },
  };
}

/** The module's source as the client bundles it: one `{method, path}` constant per declaration. */
export function stubOf(declarations: Record<string, Endpoint>): string {
  return Object.entries(declarations)
    .map(([name, { method, path }]) => `export const ${name} = ${JSON.stringify({ method, path })};`)
    .join("\n");
}
