import { existsSync } from "node:fs";
import { join } from "node:path";
import compression from "compression";
import { sql } from "drizzle-orm";
import express, { type Express, type RequestHandler } from "express";
import helmet from "helmet";
import { health as healthEndpoint } from "../../shared/api/health";
import * as reference from "../../shared/api/reference";
import type { AppDeps, RouterDeps } from "./app-deps";
import { accountRoutes } from "./features/account/account.routes";
import { archiveRoutes } from "./features/archive/archive.routes";
import { auditRoutes } from "./features/audit/audit.routes";
import { authRoutes } from "./features/auth/auth.routes";
import { emailLinkRoutes } from "./features/auth/email-links.routes";
import { passkeysRoutes } from "./features/auth/passkeys.routes";
import { reauthRoutes } from "./features/auth/reauth.routes";
import { secondFactorRoutes } from "./features/auth/second-factor.routes";
import { compareRoutes } from "./features/documents/compare.routes";
import { documentsRoutes, libraryRoutes } from "./features/documents/documents.routes";
import { versionsRoutes } from "./features/documents/versions.routes";
import { createEventHub, type EventHubOptions } from "./features/live/event-hub";
import { liveRoutes } from "./features/live/live.routes";
import { meetingsRoutes } from "./features/meetings/meetings.routes";
import { actionItemsRoutes } from "./features/meeting-record/action-items.routes";
import { boardPackRoutes } from "./features/meeting-record/board-pack.routes";
import { lifecycleRoutes } from "./features/meeting-record/lifecycle.routes";
import { minutesRoutes } from "./features/meeting-record/minutes.routes";
import { attendanceRoutes } from "./features/meeting-record/attendance.routes";
import { showOfHandsRoutes } from "./features/meeting-record/show-of-hands.routes";
import { notificationsRoutes, unsubscribeRoutes } from "./features/notifications/notifications.routes";
import { companiesRoutes } from "./features/companies/companies.routes";
import { invitationsRoutes } from "./features/companies/invitations.routes";
import { complianceRoutes } from "./features/compliance/compliance.routes";
import { platformRoutes } from "./features/platform/platform.routes";
import { readingRoutes } from "./features/reading/reading.routes";
import { liveResolutionFigures } from "./features/resolutions/live-resolution-figures.service";
import { resolutionsRoutes } from "./features/resolutions/resolutions.routes";
import { searchRoutes } from "./features/search/search.routes";
import { writtenResolutionsRoutes } from "./features/resolutions/written.routes";
import { writtenNudgeRoutes } from "./features/resolutions/written-nudge.routes";
import { serveApiReference } from "./http/api-reference";
import { mountRoutes, route } from "./http/endpoints";
import { apiNotFound, errorHandler } from "./http/errors";
import { createCompanyListCache } from "./db/company-list-cache";
import { createGuards } from "./http/guards";
import { serveOpenApiDocument } from "./http/openapi";
import { precompressedAssets } from "./http/precompressed-assets";
import { requestContext } from "./http/request-context";
import { limitOf } from "./limits";

/** Largest JSON body in general (a company logo is a data URL of at most 2 MB); documents set their own. */
const defaultBodyLimit = "4mb";

export interface CreateAppOptions {
  /** Vite's dev middleware (npm run dev); the built SPA is served otherwise. */
  frontend?: RequestHandler;
  /** Tests shorten the event streams' timings and buffer limit. */
  eventStreams?: Pick<EventHubOptions, "coalesceMs" | "heartbeatMs" | "maxBufferedBytes">;
}

/** Builds the Express app without listening: index.ts listens, tests call it in-process. */
export function createApp(deps: AppDeps, options: CreateAppOptions = {}): Express {
  const app = express();
  const routerDeps: RouterDeps = { ...deps, guards: createGuards(deps), lists: createCompanyListCache(deps.live) };
  // The event stream carries other features' figures: the resolutions feature reads its own.
  const eventHub = createEventHub(deps, {
    ...options.eventStreams,
    maxStreamsPerUser: limitOf(deps, "eventStreamsPerUser"),
    readResolutions: (db, ids) => liveResolutionFigures({ db }, ids),
    onError: (error) => deps.logger.warn({ err: error }, "reading figures for the event streams failed"),
  });

  app.disable("x-powered-by");
  app.set("trust proxy", deps.trustProxy ?? false);
  app.set("query parser", "simple");
  app.use(requestContext(deps.logger));
  app.use(
    helmet({
      contentSecurityPolicy: options.frontend
        ? false // Vite's dev client injects inline scripts.
        : {
            directives: {
              defaultSrc: ["'self'"],
              scriptSrc: ["'self'"],
              // Radix injects small <style> elements (scroll locking); styles cannot run code.
              styleSrc: ["'self'", "'unsafe-inline'"],
              imgSrc: ["'self'", "data:", "blob:", "https:"],
              connectSrc: ["'self'"],
              fontSrc: ["'self'", "data:"],
              objectSrc: ["'none'"],
              frameAncestors: ["'none'"],
              baseUri: ["'self'"],
              formAction: ["'self'"],
              upgradeInsecureRequests: null,
            },
          },
      crossOriginEmbedderPolicy: false,
    }),
  );
  app.use(compression());

  app.use("/api", (_req, res, next) => {
    res.set("Cache-Control", "no-store");
    next();
  });
  // This instance's own writes show in its kept lists at once, without waiting for their notification. "close" comes
  // after "finish", and also when the client left before the answer: the write may still have committed. Only a
  // signed-in caller's: nobody else can write what a list shows (and a stranger's requests must not empty them).
  app.use("/api", (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") res.once("close", () => req.auth && routerDeps.lists.clear());
    next();
  });
  // Documents parse their own, larger bodies (a file of up to 20 MiB), after their guard: so they come
  // before the general parser.
  app.use(mountRoutes([...versionsRoutes(routerDeps), ...documentsRoutes(routerDeps)], routerDeps));
  app.use("/api", express.json({ limit: defaultBodyLimit }));

  const health = route(healthEndpoint, async () => {
    await deps.db.execute(sql`select 1`);
    return { status: "ok" };
  });
  const referenceRoutes = [route(reference.openApiDocument, serveOpenApiDocument), route(reference.apiReference, serveApiReference)];
  // One router for every route after the body parser: a request walks one route list, not one router per feature.
  app.use(
    mountRoutes(
      [
        health,
        ...authRoutes(routerDeps),
        ...emailLinkRoutes(routerDeps),
        ...passkeysRoutes(routerDeps),
        ...reauthRoutes(routerDeps),
        ...secondFactorRoutes(routerDeps),
        ...notificationsRoutes(routerDeps),
        ...unsubscribeRoutes(routerDeps),
        ...companiesRoutes(routerDeps),
        ...invitationsRoutes(routerDeps),
        ...accountRoutes(routerDeps),
        ...platformRoutes(routerDeps),
        ...meetingsRoutes(routerDeps),
        ...lifecycleRoutes(routerDeps),
        ...attendanceRoutes(routerDeps),
        ...showOfHandsRoutes(routerDeps),
        ...boardPackRoutes(routerDeps),
        ...minutesRoutes(routerDeps),
        ...actionItemsRoutes(routerDeps),
        ...resolutionsRoutes(routerDeps),
        ...writtenResolutionsRoutes(routerDeps),
        ...writtenNudgeRoutes(routerDeps),
        ...libraryRoutes(routerDeps),
        ...compareRoutes(routerDeps),
        ...readingRoutes(routerDeps),
        ...complianceRoutes(routerDeps),
        ...auditRoutes(routerDeps),
        ...searchRoutes(routerDeps),
        ...archiveRoutes(routerDeps),
        ...liveRoutes(routerDeps, eventHub),
        ...referenceRoutes,
      ],
      routerDeps,
    ),
  );
  app.use("/api", apiNotFound);

  if (options.frontend) {
    app.use(options.frontend);
  } else if (deps.staticDir && existsSync(join(deps.staticDir, "index.html"))) {
    serveBuiltSpa(app, deps.staticDir);
  }

  app.use(errorHandler);
  return app;
}

function serveBuiltSpa(app: Express, staticDir: string): void {
  const indexHtml = join(staticDir, "index.html");
  const assets = join(staticDir, "assets");
  app.use("/assets", precompressedAssets(assets, "1y"));
  app.use("/assets", express.static(assets, { immutable: true, maxAge: "1y", fallthrough: false }));
  // No dot-file or dot-directory is served (the build's manifest sits in .vite/): such a path gets the SPA.
  app.use(express.static(staticDir, { index: false, maxAge: "1h", dotfiles: "ignore" }));
  // Client routes (/meetings/5, ...) all load the SPA, which decides between a page and its 404.
  app.use((req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    res.set("Cache-Control", "no-cache");
    res.sendFile(indexHtml);
  });
}
