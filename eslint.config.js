import { readdirSync } from "node:fs";
import { join } from "node:path";
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/*
 * Layers are rules here, not habits: `npm run check` fails on an import that crosses one.
 * `scripts/testing/lint-layers*.test.ts` prove each zone bites by linting a deliberately wrong import.
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
const eslintConfigDir = import.meta.dirname;
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
          message:
            "A feature never imports another feature: a page in app/ composes them, or the shared piece moves to components/ or lib/.",
        })),
      ],
    },
  ],
};

/** A string or template that starts as an address of the API. */
const apiAddressSelector = "Literal[value=/^\\/api(\\/|$)/], TemplateElement[value.raw=/^\\/api(\\/|$)/]";

// ---- server layers ---------------------------------------------------------------------------
// index.ts → app.ts → features/<f>/ → integrations/ → http/ → db/ → env.ts, logger.ts, clock.ts, database-failure.ts.
// crypto/ (password hashing, single-use tokens) stands beside the foundation: anything may use it, it uses nothing.
// app-deps.ts (the types app.ts hands down) sits with app.ts: features may use it, nothing below them.
// Tests and server/src/testing/ build the whole app, so they stand above every layer and are exempt.
const serverDir = (path) => join(import.meta.dirname, "server/src", path);
const serverFeatures = readdirSync(serverDir("features"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const serverTop = ["index.ts", "app.ts", "testing"].map(serverDir);
const serverComposition = [...serverTop, serverDir("app-deps.ts")];
const serverLayerRules = {
  "import-x/no-restricted-paths": [
    "error",
    {
      zones: [
        {
          target: ["env.ts", "logger.ts", "clock.ts", "database-failure.ts"].map(serverDir),
          from: [serverDir("db"), serverDir("http"), serverDir("integrations"), serverDir("features"), ...serverComposition],
          message:
            "env.ts, logger.ts, clock.ts and database-failure.ts are the server's foundation: they import nothing of the server above them.",
        },
        {
          target: serverDir("crypto"),
          from: [serverDir("db"), serverDir("http"), serverDir("integrations"), serverDir("features"), ...serverComposition],
          message: "crypto/ is pure: it imports nothing of the server above the foundation.",
        },
        {
          target: serverDir("db"),
          from: [serverDir("http"), serverDir("integrations"), serverDir("features"), ...serverComposition],
          message: "db/ imports nothing above it (http/, integrations/, features/, app.ts, app-deps.ts, index.ts).",
        },
        {
          target: serverDir("http"),
          from: [serverDir("integrations"), serverDir("features"), ...serverComposition],
          message: "http/ is core: it never imports a feature, an integration or the app that composes them.",
        },
        {
          target: serverDir("integrations"),
          from: [serverDir("features"), ...serverComposition],
          message: "integrations/ are adapters: they know no feature and nothing of the app that composes them.",
        },
        {
          target: serverDir("integrations"),
          from: serverDir("http/errors.ts"),
          message: "integrations/ throw their own errors; the feature's service decides what they mean over HTTP.",
        },
        {
          target: serverDir("features"),
          from: serverTop,
          message: "Features are composed by app.ts, never the other way round.",
        },
        // A feature's public surface is what its file names say other features may import: its *.service.ts
        // (operations) and its *.guard.ts (the company checks of routes on its things). Routes and helpers are its own.
        ...serverFeatures.map((feature) => ({
          target: serverDir(`features/${feature}`),
          from: serverDir("features/*/**"),
          except: [serverDir(`features/${feature}/**`), serverDir("features/*/*.service.ts"), serverDir("features/*/*.guard.ts")],
          message:
            "Another feature is used only through its *.service.ts and *.guard.ts (routes and helpers are internal); a piece two features share moves down to http/, integrations/ or db/.",
        })),
      ],
    },
  ],
};

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
    // Every call names its endpoint's declaration (shared/api/): an address written by hand could drift from
    // the server's route, and its answer would be typed by hope. Only the one call function builds addresses.
    files: ["client/src/**/*.{ts,tsx}"],
    ignores: ["client/src/lib/api-client.ts", "client/src/**/*.test.{ts,tsx}", "client/src/**/testing/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: apiAddressSelector,
          message: "Call the endpoint through its declaration (callApi or apiUrl with shared/api/<feature>.ts), not an /api/ address.",
        },
      ],
    },
  },
  {
    // Tests fake the API through the same declarations (handle() of client/src/testing/handle.ts types and checks
    // each fake answer), so a renamed route or a changed answer fails the client tests instead of passing them.
    files: ["client/src/**/*.test.{ts,tsx}", "client/src/**/testing/**/*.{ts,tsx}"],
    ignores: [
      // The request convention's own tests: what they test is how it handles any address.
      "client/src/lib/api-client.test.ts",
    ],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: apiAddressSelector,
          message:
            "Fake the endpoint with handle(declaration, ...) from @/testing/handle, and name an address with apiUrl(declaration), not an /api/ address.",
        },
      ],
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
    ignores: ["server/**/*.test.ts", "server/src/testing/**"],
    rules: { ...serverLayerRules },
  },
  {
    // Every wire field is built from the input primitives, which bound its length and refuse what Postgres
    // cannot store (control characters, ids beyond integer, dates outside years 1900-9999).
    files: ["shared/**/*.ts"],
    ignores: ["shared/input.ts", "shared/**/*.test.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.object.name='z'][callee.property.name=/^(string|number|bigint|date)$/]",
          message:
            "Build request fields from shared/input.ts (text, id, integer, isoTimestamp, email, ...), not a raw zod primitive; an answer's fields use `answer` from shared/answer.ts.",
        },
        {
          selector: "MemberExpression[object.name='z'][property.name='coerce']",
          message: "Build wire fields from shared/input.ts (id parses numbers given as strings), not z.coerce.",
        },
      ],
    },
  },
);
