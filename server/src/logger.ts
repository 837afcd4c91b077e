import pino, { type DestinationStream, type Logger } from "pino";

/** JSON lines; anything that could hold a secret is redacted even if someone logs it by mistake. */
export function createLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? "info",
      redact: {
        paths: [
          "req.headers.authorization",
          "req.headers.cookie",
          "*.password",
          "*.passwordHash",
          "*.token",
          "*.serviceKey",
          "password",
          "token",
          "serviceKey",
        ],
        censor: "[redacted]",
      },
    },
    options.destination,
  );
}
