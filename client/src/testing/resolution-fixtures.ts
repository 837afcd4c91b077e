import { http, HttpResponse } from "msw";
import type { Resolution, ResolutionDetails, VoteCounts } from "@shared/resolutions";
import { buildUser } from "@/testing/factories";
import { server } from "@/testing/server";

export const me = buildUser({ id: 7, companyId: 3, role: "member" });
/** The instant the resolution tests fake as now. */
export const now = new Date("2026-06-01T15:00:00.000Z");
export const at = (ms: number) => new Date(now.getTime() + ms).toISOString();

let nextId = 1;
export function buildResolution(overrides: Partial<Resolution> = {}): Resolution {
  const id = overrides.id ?? nextId++;
  return {
    id,
    title: `Resolution ${id}`,
    description: "Approve the plan",
    type: "Ordinary",
    deadline: at(7 * 86_400_000),
    status: "pending",
    createdAt: "2026-05-20T10:00:00.000Z",
    createdBy: 1,
    decidedAt: null,
    explanation: null,
    documentIds: [],
    voteCounts: { yes: 0, no: 0, abstain: 0 },
    ...overrides,
  };
}
export function details(resolution: Resolution, extra: Partial<ResolutionDetails> = {}): ResolutionDetails {
  return { ...resolution, documents: [], voters: [], recusals: [], certificate: null, ...extra };
}
export function serve(list: Resolution[], { votes }: { votes?: () => VoteCounts } = {}) {
  server.use(
    http.get("/api/companies/3/resolutions", () => HttpResponse.json(list)),
    http.get("/api/resolutions/:id", ({ params }) => {
      const found = list.find((resolution) => resolution.id === Number(params.id));
      return found ? HttpResponse.json(details(found)) : HttpResponse.json({ message: "Not found" }, { status: 404 });
    }),
    http.get("/api/resolutions/:id/votes", () =>
      HttpResponse.json(votes ? votes() : { yes: 0, no: 0, abstain: 0, total: 0, userVote: null }),
    ),
  );
}
