import * as resolutionsApi from "@shared/api/resolutions";
import type { Resolution, ResolutionDetails, VoteCounts } from "@shared/resolutions";
import { buildUser } from "@/testing/factories";
import { apiError, handle } from "@/testing/handle";
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
    procedure: "vote",
    textSha256: null,
    lapsesAt: null,
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
  return { ...resolution, documents: [], voters: [], recusals: [], certificate: null, written: null, writtenCertificate: null, ...extra };
}
export function serve(list: Resolution[], { votes }: { votes?: () => VoteCounts } = {}) {
  server.use(
    handle(resolutionsApi.listResolutions, () => list, { params: { companyId: 3 } }),
    handle(resolutionsApi.getResolution, ({ params }) => {
      const found = list.find((resolution) => resolution.id === params.id);
      return found ? details(found) : apiError(404, "Not found");
    }),
    handle(resolutionsApi.getVoteCounts, () => (votes ? votes() : { yes: 0, no: 0, abstain: 0, total: 0, userVote: null })),
  );
}
