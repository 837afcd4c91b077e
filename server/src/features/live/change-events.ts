import { inArray } from "drizzle-orm";
import type { LiveEventData, LiveEventKind } from "../../../../shared/live-events";
import type { ServiceDeps } from "../../app-deps";
import type { Database } from "../../db/client";
import type { LiveChange } from "../../db/live-bus";
import { meetings } from "../../db/schema";

/** A resolution's company, status and counts, read for many at once (the resolutions feature answers it). */
export interface ResolutionFigures {
  id: number;
  companyId: number;
  status: LiveEventData["resolution"]["status"];
  yes: number;
  no: number;
  abstain: number;
}

/** Who may receive an event: the members of a company, or one user. */
export type Audience = { companyId: number } | { userId: number };

export type Publish = <K extends LiveEventKind>(kind: K, data: LiveEventData[K], audience: Audience) => void;

export interface ChangeEventOptions {
  /** Reads on the given connection (the listening one when it is up). */
  readResolutions: (db: Database, ids: readonly number[]) => Promise<ResolutionFigures[]>;
  /** However many votes land, a resolution's counts are read at most once in this long (per instance). */
  coalesceMs: number;
  /** Told when a read of the figures fails (never with a payload). */
  onError?: (error: Error) => void;
  /** Whether any stream is open: with none, nothing is read. */
  anyStreams: () => boolean;
  publish: Publish;
}

/**
 * The events the live bus's changes make. Votes and resolutions (and meetings whose company the change does not
 * name) are read once for all streams, in one query per burst; the rest are published as they come.
 */
export function createChangeEvents({ db, live }: ServiceDeps<"db" | "live">, options: ChangeEventOptions) {
  const { coalesceMs, publish } = options;
  const pendingResolutions = new Set<number>();
  const pendingStatus = new Set<number>();
  const pendingMeetings = new Set<number>();
  let flushTimer: NodeJS.Timeout | undefined;
  let lastFlush = 0;
  let flushing = false;

  const scheduleFlush = () => {
    if (flushTimer || flushing) return;
    // The first change of a quiet spell is read at once; later ones wait for the rest of the window.
    const wait = Math.max(0, lastFlush + coalesceMs - Date.now());
    flushTimer = setTimeout(() => void flush(), wait);
  };

  async function flush(): Promise<void> {
    flushTimer = undefined;
    flushing = true;
    lastFlush = Date.now();
    const resolutionIds = [...pendingResolutions];
    const statusIds = new Set(pendingStatus);
    const meetingIds = [...pendingMeetings];
    pendingResolutions.clear();
    pendingStatus.clear();
    pendingMeetings.clear();
    try {
      if (options.anyStreams()) {
        // On the listening connection: in a burst of votes every pooled connection may be waiting on the
        // resolution's row lock, and the counts must not wait behind them.
        const reader = live.reader() ?? db;
        const [figures, meetingRows] = await Promise.all([
          options.readResolutions(reader, resolutionIds),
          meetingIds.length > 0
            ? reader
                .select({ id: meetings.documentId, companyId: meetings.companyId })
                .from(meetings)
                .where(inArray(meetings.documentId, meetingIds))
            : Promise.resolve([]),
        ]);
        for (const figure of figures) {
          const audience = { companyId: figure.companyId };
          const { id: resolutionId, yes, no, abstain } = figure;
          publish("votes", { resolutionId, yes, no, abstain, total: yes + no + abstain }, audience);
          if (statusIds.has(resolutionId)) publish("resolution", { resolutionId, status: figure.status }, audience);
        }
        for (const meeting of meetingRows) publish("meeting", { meetingId: meeting.id }, { companyId: meeting.companyId });
      }
    } catch (error) {
      options.onError?.(error as Error);
    } finally {
      flushing = false;
      if (pendingResolutions.size > 0 || pendingMeetings.size > 0) scheduleFlush();
    }
  }

  const onLiveChange = (change: LiveChange) => {
    switch (change.kind) {
      case "votes":
        pendingResolutions.add(change.resolutionId);
        return scheduleFlush();
      case "resolution":
        pendingResolutions.add(change.resolutionId);
        pendingStatus.add(change.resolutionId);
        return scheduleFlush();
      case "meeting":
        if (change.companyId !== undefined) return publish("meeting", { meetingId: change.meetingId }, { companyId: change.companyId });
        pendingMeetings.add(change.meetingId);
        return scheduleFlush();
      case "notification":
        return publish("notification", { id: change.notificationId }, { userId: change.userId });
      case "document":
        return publish("document", { documentId: change.documentId, change: change.change }, { companyId: change.companyId });
    }
  };

  return {
    onLiveChange,
    close() {
      clearTimeout(flushTimer);
    },
  };
}
