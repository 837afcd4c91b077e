import { sql } from "drizzle-orm";
import type { Express, NextFunction, Request, Response } from "express";
import { changeChannels } from "../../../shared/live-change";
import type { DatabaseHandle } from "../db/client";
import type { LiveBus } from "../db/live-bus";

/**
 * A session id no row can have: a session's change empties no kept list, and what listens forgets nothing for this one.
 */
const markerSession = 2_147_483_647;
/** Past this, a wait gives up and lets the test go on as it would have without it (its own assertions then speak). */
const longestWaitMs = 5_000;

export interface NotificationWaits {
  /** Returns once `bus` has heard the notifications of every write committed so far. */
  heard(bus: LiveBus): Promise<void>;
  /** Told each statement the app sends: a write may notify, a read never does. */
  sawStatement(statement: string): void;
  /** The app, each of whose requests starts once the notifications of the writes before it have been heard. */
  gated(app: Express): Express;
  close(): Promise<void>;
}

/**
 * Waits on a test database's notifications. Postgres hands a listener its notifications in the order their writes
 * committed, but on its own time: a test that reads right after a write may find a cache the write's notification has
 * not emptied yet, or fill one that a late notification then empties. A marker sent now and heard tells that every
 * earlier one has been. The embedded database hands them out before the statement that caused them returns, so there
 * is nothing to wait for. The markers go on a connection of their own, so no query count sees them.
 */
export async function openNotificationWaits(database: DatabaseHandle & { openAnother(): Promise<DatabaseHandle> }, live: LiveBus) {
  const sender = database.kind === "postgres" ? await database.openAnother() : undefined;
  let writesUnheard = false;

  const heard = async (bus: LiveBus): Promise<void> => {
    // Nothing is heard while the listening connection is down: a test of that waits on its own terms.
    if (!sender || !bus.isListening()) return;
    const stops: (() => void)[] = [];
    let timer: NodeJS.Timeout | undefined;
    const done = new Promise<void>((resolve) => {
      stops.push(bus.onAuthChange((change) => change.sessionId === markerSession && resolve()));
      stops.push(bus.onListeningChange(() => resolve()));
      timer = setTimeout(resolve, longestWaitMs);
    });
    try {
      await sender.db.execute(sql`select pg_notify(${changeChannels.auth}, ${JSON.stringify({ s: markerSession })})`);
      await done;
    } finally {
      clearTimeout(timer);
      for (const stop of stops) stop();
    }
  };

  const waits: NotificationWaits = {
    heard,
    sawStatement(statement) {
      if (!/^\s*select\b/i.test(statement)) writesUnheard = true;
    },
    gated(app) {
      if (!sender) return app;
      // Requests that arrive while a wait is under way join it, so requests a test sends at once still start together.
      let waiting: Promise<void> | undefined;
      const handle = (req: Request, res: Response, next: NextFunction) => {
        if (writesUnheard) {
          writesUnheard = false;
          // A marker that cannot be sent leaves the request as it would have been without the wait.
          const wait: Promise<void> = heard(live)
            .catch(() => undefined)
            .finally(() => {
              if (waiting === wait) waiting = undefined;
            });
          waiting = wait;
        }
        if (!waiting) return app(req, res, next);
        void waiting.then(() => app(req, res, next));
      };
      // Everything else (its router, listen) is the app's own.
      return Object.setPrototypeOf(handle, app) as Express;
    },
    close: async () => sender?.close(),
  };
  return waits;
}

/**
 * `handle` as an instance's live bus sees it, each notification handed on `delayMs` late (by default the environment's
 * QUORUM_TEST_NOTIFY_DELAY_MS, else none). Postgres on a loaded machine may deliver late: a whole server run with, say,
 * 40 makes a test that races a notification (what the waits above prevent) far likelier to fail. A test that fakes the
 * timers stops the delayed ones too.
 */
export function withLateNotifications<Handle extends Pick<DatabaseHandle, "listen">>(
  handle: Handle,
  delayMs = Number(process.env.QUORUM_TEST_NOTIFY_DELAY_MS ?? 0),
): Handle {
  if (!(delayMs > 0)) return handle;
  return {
    ...handle,
    listen: (channels, onNotification, onLost) =>
      handle.listen(channels, (channel, payload) => void setTimeout(() => onNotification(channel, payload), delayMs), onLost),
  };
}
