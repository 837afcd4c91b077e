import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/**
 * A route is bound in the feature that declares it: every declaration of `shared/api/<module>.ts` is bound by
 * `route(...)` in `server/src/features/<module>/`, so whoever reads a declaration knows where its handler is. A
 * few modules are named for what a client sees rather than for the server feature that answers them: they are
 * listed here, and each is still bound in that one feature.
 */
const featureOfModule: Record<string, string> = {
  identity: "auth",
  "second-factor": "auth",
  events: "live",
};
/** Bound by the app itself (health, the API's reference), not by a feature. */
const boundByTheApp = new Set(["health", "reference"]);

const serverSrc = import.meta.dirname;
const featuresDir = join(serverSrc, "features");

/** `<feature> → (module → declaration names)` for every `route(alias.name` of a module imported `* as alias`. */
function bindings(): { feature: string; file: string; module: string; name: string }[] {
  const found: { feature: string; file: string; module: string; name: string }[] = [];
  for (const feature of readdirSync(featuresDir)) {
    for (const entry of readdirSync(join(featuresDir, feature), { recursive: true, encoding: "utf8" })) {
      if (!entry.endsWith(".ts") || entry.endsWith(".test.ts")) continue;
      const file = join(featuresDir, feature, entry);
      const source = readFileSync(file, "utf8");
      const aliases = new Map<string, string>();
      for (const [, alias = "", module = ""] of source.matchAll(/import \* as (\w+) from "[./]*\/shared\/api\/([\w-]+)"/g)) {
        aliases.set(alias, module);
      }
      for (const [, alias = "", name = ""] of source.matchAll(/\broute\(\s*(\w+)\.(\w+)/g)) {
        const module = aliases.get(alias);
        if (module) found.push({ feature, file: relative(serverSrc, file), module, name });
      }
    }
  }
  return found;
}

describe("routes are bound where they are declared", () => {
  it("binds each shared/api module's declarations in the feature of that name", () => {
    const bound = bindings();
    expect(bound.length).toBeGreaterThan(100);
    const strays = bound
      .filter(({ feature, module }) => (featureOfModule[module] ?? module) !== feature)
      .map(({ file, module, name }) => `${file} binds ${module}.${name}`);
    expect(strays).toEqual([]);
  });

  it("finds a feature for every module that declares routes", () => {
    const modules = readdirSync(join(serverSrc, "../../shared/api"))
      .filter((name) => name.endsWith(".ts") && !["endpoint.ts", "table.ts"].includes(name))
      .map((name) => name.slice(0, -3))
      .filter((module) => !boundByTheApp.has(module));
    const features = new Set(readdirSync(featuresDir));
    expect(modules.filter((module) => !features.has(featureOfModule[module] ?? module))).toEqual([]);
  });
});
