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
const clientLayerRules = {};

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
          message: "Build wire fields from shared/input.ts (text, id, integer, isoTimestamp, email, ...), not a raw zod primitive.",
        },
        {
          selector: "MemberExpression[object.name='z'][property.name='coerce']",
          message: "Build wire fields from shared/input.ts (id parses numbers given as strings), not z.coerce.",
        },
      ],
    },
  },
);
