import { defineConfig } from "drizzle-kit";

// Generates SQL migrations from the schema; the server applies them at start-up.
export default defineConfig({
  dialect: "postgresql",
  schema: "./server/src/db/schema.ts",
  out: "./migrations",
});
