import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/*
 * Layers are rules here, not habits: `npm run check` fails on an import that crosses one.
 * `scripts/lint-layers.test.ts` proves each zone bites by linting a deliberately wrong import.
 */

// ---- client layers ---------------------------------------------------------------------------
/*
 * client/src: app/ (router, layout, pages) → features/<f>/ → components/, lib/.
 * - components/ and lib/ are the shared floor: they never import a feature or the app.
 * - A feature never imports the app.
 * - A feature imports no other feature at all, not even its api/: pages in app/ compose features
 *   (a page reads one feature's query and hands the data to another's components, or a feature offers
 *   pure functions over another's data, like meetingsFromDocuments). A piece two features really share
 *   moves down to components/ or lib/ (the company-scoped key root and the session live in lib/auth).
 * Test files obey the same zones; a test of how features work together lives in app/.
 */
const eslintConfigDir = fileURLToPath(new URL(".", import.meta.url));
const clientRoot = "client/src";
// One zone per feature folder, read from the tree, so a new feature is fenced in without touching this file.
const clientFeatures = readdirSync(join(eslintConfigDir, clientRoot, "features"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const clientLayerRules = {
  "import-x/no-restricted-paths": [
    "error",
    {
      basePath: eslintConfigDir,
      zones: [
        {
          target: `${clientRoot}/components`,
          from: [`${clientRoot}/features`, `${clientRoot}/app`],
          message: "components/ is shared by everything above it: it never imports a feature or the app.",
        },
        {
          target: `${clientRoot}/lib`,
          from: [`${clientRoot}/features`, `${clientRoot}/app`],
          message: "lib/ is shared by everything above it: it never imports a feature or the app.",
        },
        {
          target: `${clientRoot}/features`,
          from: `${clientRoot}/app`,
          message: "A feature never imports the app (router, layout, pages): the app imports features.",
        },
        ...clientFeatures.map((feature) => ({
          target: `${clientRoot}/features/${feature}`,
          from: `${clientRoot}/features`,
          except: [`./${feature}`],
          message: "A feature never imports another feature: a page in app/ composes them, or the shared piece moves to components/ or lib/.",
        })),
      ],
    },
  ],
};

// ---- server layers ---------------------------------------------------------------------------
const serverLayerRules = {};

export default tseslint.config(
  { ignores: ["dist", "node_modules", "migrations", "coverage", "e2e/artifacts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "import-x": importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      "import-x/resolver": undefined,
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })],
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // No import cycles anywhere (type-only imports included: a cycle of types is still a tangle).
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
    },
  },
  {
    files: ["client/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["**/server/**", "@server/*"], message: "The client never imports server code." }] },
      ],
      ...clientLayerRules,
    },
  },
  {
    // The server and shared code never reach into the client.
    files: ["server/**/*.ts", "shared/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["**/client/**", "@/*"], message: "Server and shared code never import the client." }] },
      ],
    },
  },
  {
    files: ["server/**/*.ts"],
    rules: { ...serverLayerRules },
  },
);
