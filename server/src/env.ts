import { z } from "zod";
import { limitEnvNames, type LimitEnvName } from "./limits";

/** A LIMIT_… variable: a whole positive count, unset for the default. */
const limitCount = (name: string) =>
  z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.coerce
      .number({ error: `${name} must be a number` })
      .int(`${name} must be a whole number`)
      .positive(`${name} must be at least 1`)
      .optional(),
  );
const limitVariables = Object.fromEntries(limitEnvNames.map((name) => [name, limitCount(name)])) as {
  [Name in LimitEnvName]: ReturnType<typeof limitCount>;
};

/** The only reader of process.env: parsed once, with readable messages. */
const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATABASE_URL: z
    .string()
    .url("DATABASE_URL must be a postgres:// URL")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  DATA_DIR: z.string().min(1).default("./data"),
  APP_SECRET: z
    .string()
    .min(32, "APP_SECRET must be at least 32 characters")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  OPENAI_API_KEY: z
    .string()
    .optional()
    .transform((value) => value || undefined),
  OPENAI_BASE_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal("").transform(() => undefined)),
  OPENAI_MODEL: z.string().min(1).default("gpt-4o-mini"),
  // Hosts ("host" or "host:port", comma-separated) that services may reach over http:// and at private addresses.
  OUTBOUND_ALLOWED_HOSTS: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? "")
        .split(",")
        .map((entry) => entry.trim().toLowerCase())
        .filter(Boolean),
    ),
  PLATFORM_ADMINS: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? "")
        .split(",")
        .map((name) => name.trim())
        .filter(Boolean),
    ),
  // Express's "trust proxy": unset = no proxy; "true", a hop count, or a list of proxy addresses/subnets.
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value): boolean | number | string => {
      const trimmed = value?.trim() ?? "";
      if (trimmed === "" || trimmed === "false") return false;
      if (trimmed === "true") return true;
      return /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
    }),
  // The sender of every e-mail (a verified sender with SendGrid), e.g. "Quorum <board@example.com>".
  MAIL_FROM: z
    .string()
    .optional()
    .transform((value) => value?.trim() || undefined),
  // The address people open Quorum at, for links in e-mails; defaults to http://HOST:PORT.
  APP_URL: z
    .string()
    .url("APP_URL must be an http(s) URL")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  // How often the background jobs run (reminders, the digest, the mail outbox): how long a mailed link may wait.
  JOBS_INTERVAL_MS: z.coerce
    .number({ error: "JOBS_INTERVAL_MS must be a number of milliseconds" })
    .int("JOBS_INTERVAL_MS must be a whole number of milliseconds")
    .min(200, "JOBS_INTERVAL_MS must be at least 200")
    .max(3_600_000, "JOBS_INTERVAL_MS must be at most 3600000 (an hour)")
    .default(15_000),
  // Multiplies every LIMIT_… count at once (load tests and CI raise them all); see server/src/limits.ts.
  LIMITS_MULTIPLIER: z.coerce
    .number({ error: "LIMITS_MULTIPLIER must be a number" })
    .positive("LIMITS_MULTIPLIER must be more than 0")
    .default(1),
  ...limitVariables,
});

export type Env = z.infer<typeof envSchema>;

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`).join("\n");
    throw new Error(`Invalid configuration:\n${problems}`);
  }
  return parsed.data;
}
