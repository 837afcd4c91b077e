import request from "supertest";
import { useTestContext, type SignedUp } from "../../testing/test-context";
import { linesPdf, versionFixtures } from "../../testing/version-fixtures";

const ctx = useTestContext();
const { upload, replace } = versionFixtures(ctx);

const get = (user: SignedUp, path: string) => request(ctx.app).get(path).set("Authorization", user.bearer);
const read = (user: SignedUp, id: number, version: number) =>
  request(ctx.app)
    .post(`/api/documents/${id}/reads`)
    .set("Authorization", user.bearer)
    .send({ version, pages: [1] });

describe("changed since you read it", () => {
  it("is each director's own: set for who opened an earlier version, cleared when they open the latest", async () => {
    const { founder, company, member } = await ctx.board("Flag Ltd");
    const ann = await member();
    const ben = await member();
    const paper = await upload(founder, "forecast.pdf", await linesPdf([["Forecast"]]), "Forecast.pdf");
    expect((await read(ann, paper.id, 1)).status).toBe(204);
    expect(
      (await replace(founder, paper.id, "Revised after the audit", "forecast.pdf", await linesPdf([["Forecast, revised"]]))).status,
    ).toBe(201);

    const flags = async (user: SignedUp) => {
      const library = (await get(user, `/api/companies/${company.id}/documents`)).body as { id: number; changedSinceRead: boolean }[];
      const recent = (await get(user, `/api/companies/${company.id}/documents/recent`)).body as { id: number; changedSinceRead: boolean }[];
      const one = (await get(user, `/api/documents/${paper.id}`)).body as { changedSinceRead: boolean; version: number };
      expect(one.version).toBe(2);
      return [library, recent].map((list) => list.find((row) => row.id === paper.id)!.changedSinceRead).concat(one.changedSinceRead);
    };
    expect(await flags(ann)).toEqual([true, true, true]);
    expect(await flags(ben)).toEqual([false, false, false]);
    expect(await flags(founder)).toEqual([false, false, false]);

    expect((await read(ann, paper.id, 2)).status).toBe(204);
    expect(await flags(ann)).toEqual([false, false, false]);
  });

  it("names the version each director last opened, which the comparison starts from", async () => {
    const { founder, company, member } = await ctx.board("Read Version Ltd");
    const ann = await member();
    const ben = await member();
    const cat = await member();
    const paper = await upload(founder, "budget.pdf", await linesPdf([["Budget"]]), "Budget.pdf");
    const revise = async (note: string, line: string) =>
      expect((await replace(founder, paper.id, note, "budget.pdf", await linesPdf([[line]]))).status).toBe(201);
    expect((await read(ann, paper.id, 1)).status).toBe(204);
    await revise("Costs revised", "Budget, costs revised");
    expect((await read(ben, paper.id, 2)).status).toBe(204);
    // Ann opens the first version again after the first replacement: her latest read is still version 1.
    expect((await read(ann, paper.id, 1)).status).toBe(204);
    await revise("Audit changes", "Budget, after the audit");

    type Flags = { id: number; version: number; changedSinceRead: boolean; readVersion: number | null };
    const seen = async (user: SignedUp) => {
      const library = (await get(user, `/api/companies/${company.id}/documents`)).body as Flags[];
      const recent = (await get(user, `/api/companies/${company.id}/documents/recent`)).body as Flags[];
      const list = (await get(user, "/api/documents")).body as Flags[];
      const one = (await get(user, `/api/documents/${paper.id}`)).body as Flags;
      return [...[library, recent, list].map((rows) => rows.find((row) => row.id === paper.id)!), one].map(
        ({ version, changedSinceRead, readVersion }) => ({ version, changedSinceRead, readVersion }),
      );
    };
    const four = (flags: Omit<Flags, "id">) => [flags, flags, flags, flags];
    expect(await seen(ann)).toEqual(four({ version: 3, changedSinceRead: true, readVersion: 1 }));
    expect(await seen(ben)).toEqual(four({ version: 3, changedSinceRead: true, readVersion: 2 }));
    // Never opened, or opened at the latest: nothing to compare from.
    expect(await seen(cat)).toEqual(four({ version: 3, changedSinceRead: false, readVersion: null }));
    expect((await read(ben, paper.id, 3)).status).toBe(204);
    expect(await seen(ben)).toEqual(four({ version: 3, changedSinceRead: false, readVersion: null }));
  });
});
