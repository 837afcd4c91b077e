import type { AppDeps } from "../../app-deps";
import { sendActionItemReminders } from "./action-item-reminders.service";
import { sendWeeklyDigest } from "./digest.service";
import { sendMeetingReminders } from "./meeting-reminders.service";
import { sendVoteClosingReminders } from "./vote-reminders.service";
import { sendWrittenSignatureReminders } from "./written-reminders.service";
import { drainOutbox } from "../notifications/outbox.service";

export interface BackgroundJobs {
  /**
   * Runs one round now (what the timer does): meeting, vote-closing, written-signature and action item reminders, the
   * digest when due, then the outbox.
   */
  runOnce(): Promise<void>;
  /** Stops the timer and waits for a round in progress. */
  stop(): Promise<void>;
}

/**
 * The periodic work of reminders and mail, on the injected clock: meeting reminders, vote-closing reminders, reminders
 * to sign written resolutions, action item reminders, the weekly digest and then the mail outbox they fill, one
 * round every `intervalMs`. Every part is safe with several instances running it at once (marks done once, rows
 * claimed with SKIP LOCKED). `start: false` builds it without a timer (tests drive `runOnce`).
 */
export function startBackgroundJobs(
  deps: Pick<AppDeps, "db" | "clock" | "logger" | "appSecret" | "mail" | "outbound">,
  options: { intervalMs?: number; start?: boolean } = {},
): BackgroundJobs {
  const intervalMs = options.intervalMs ?? 15_000;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;

  const step = async (name: string, work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      deps.logger.error({ err: error, job: name }, "a background job failed");
    }
  };

  const runOnce = (): Promise<void> => {
    running ??= (async () => {
      await step("meeting-reminders", () => sendMeetingReminders(deps));
      await step("vote-closing-reminders", () => sendVoteClosingReminders(deps));
      await step("written-signature-reminders", () => sendWrittenSignatureReminders(deps));
      await step("action-item-reminders", () => sendActionItemReminders(deps));
      await step("weekly-digest", () => sendWeeklyDigest(deps));
      await step("mail-outbox", () => drainOutbox(deps));
    })().finally(() => {
      running = null;
    });
    return running;
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      void runOnce().finally(schedule);
    }, intervalMs);
    timer.unref();
  };
  if (options.start !== false) schedule();

  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
