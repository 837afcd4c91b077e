import * as resolutionsApi from "@shared/api/resolutions";
import * as secondFactorApi from "@shared/api/second-factor";
import type { ResolutionDetails } from "@shared/resolutions";
import type { Passkey } from "@shared/second-factor";
import { defaultWrittenRule, type WrittenCertificate, type WrittenState } from "@shared/written-resolutions";
import { handle } from "@/testing/handle";
import { at, buildResolution, details } from "@/testing/resolution-fixtures";
import { screen, within } from "@testing-library/react";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { me } from "@/testing/resolution-fixtures";

export const writtenText = "# Budget\n\nRESOLVED, that the **FY27 budget** is adopted.\n\n- Capex: 1.2m\n- Opex: 3.4m";
export const writtenSha = "9f2c1e0b7a4d3c5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6";

/** A written resolution's state as its details show it, open to the caller's signature unless told otherwise. */
export function buildWrittenState(overrides: Partial<WrittenState> = {}): WrittenState {
  return {
    rule: defaultWrittenRule,
    signed: [{ userId: 1, name: "Fay Founder", signedAt: "2026-05-30T09:15:00.000Z" }],
    awaiting: [
      { userId: 7, name: "Mia Member" },
      { userId: 8, name: "Dan Director" },
    ],
    mine: null,
    maySign: true,
    mayWithdraw: false,
    mayNudge: false,
    ...overrides,
  };
}

export function buildWritten(id: number, fields: Partial<ResolutionDetails> = {}): ResolutionDetails {
  const resolution = buildResolution({
    id,
    title: "Adopt the FY27 budget",
    description: writtenText,
    procedure: "written",
    textSha256: writtenSha,
    lapsesAt: at(20 * 86_400_000),
    deadline: at(20 * 86_400_000),
  });
  return details(resolution, { written: buildWrittenState(), ...fields });
}

export function buildWrittenCertificate(fields: Partial<WrittenCertificate> = {}): WrittenCertificate {
  return {
    procedure: "written",
    resolutionId: 60,
    companyId: 3,
    title: "Adopt the FY27 budget",
    text: writtenText,
    textSha256: writtenSha,
    rule: defaultWrittenRule,
    proposedAt: "2026-05-20T10:00:00.000Z",
    lapsesAt: "2026-06-17T10:00:00.000Z",
    eligible: [
      { userId: 1, name: "Fay Founder" },
      { userId: 7, name: "Mia Member" },
    ],
    recused: [],
    signatures: [
      { userId: 1, name: "Fay Founder", decision: "agree", method: "passkey", signedAt: "2026-05-30T09:15:00.000Z", statement: "{}" },
      { userId: 7, name: "Mia Member", decision: "agree", method: "password+totp", signedAt: "2026-06-01T14:05:00.000Z", statement: "{}" },
    ],
    outcome: "approved",
    effectiveAt: "2026-06-01T14:05:00.000Z",
    decidedAt: "2026-06-01T14:05:00.000Z",
    explanation: "Passed: all 2 eligible directors agreed; effective 1 Jun 2026 14:05 UTC at the signature of Mia Member",
    auditHeadHash: "ab".repeat(32),
    ...fields,
  };
}

const laptop: Passkey = { id: 5, name: "Laptop", createdAt: "2026-01-05T10:00:00.000Z", lastUsedAt: null };

/** Serves one written resolution (in the list and its details) and how the caller can sign: passkeys and an app or not. */
export function serveWritten(resolution: ResolutionDetails, { passkeys = false, app = false }: { passkeys?: boolean; app?: boolean } = {}) {
  const state = { details: resolution };
  server.use(
    handle(resolutionsApi.listResolutions, () => [state.details], { params: { companyId: 3 } }),
    handle(resolutionsApi.getResolution, () => state.details),
    handle(resolutionsApi.pendingResolutions, () => [], { params: { companyId: 3 } }),
    handle(secondFactorApi.listPasskeys, () => (passkeys ? [laptop] : [])),
    handle(secondFactorApi.getTotpStatus, () => ({ enabled: app })),
  );
  return state;
}

/** Opens the written resolution `id` (served with serveWritten) at its link, as the member `me`, and waits for its text. */
export async function openWritten(id = 60) {
  const view = renderApp({ path: `/resolutions/${id}`, signedInAs: me });
  const dialog = await screen.findByRole("dialog", { name: "Adopt the FY27 budget" }, { timeout: 15_000 });
  await within(dialog).findByRole("heading", { name: "The text" }, { timeout: 15_000 });
  return { ...view, dialog };
}
