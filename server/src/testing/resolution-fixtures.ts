import request from "supertest";
import type { ResolutionDetails } from "../../../shared/resolutions";
import type { CompanyRole } from "../../../shared/roles";
import type { SignedUp, TestContext } from "./test-context";

export const day = 24 * 60 * 60 * 1000;

type Person = SignedUp;

/** The requests the resolution tests make, bound to a file's test context. */
export function resolutionFixtures(ctx: Pick<TestContext, "app" | "clock" | "board">) {
  const inAWeek = () => new Date(ctx.clock.now().getTime() + 7 * day);

  /** A board: a founder and `members` more voters (members), plus observers. */
  async function boardWith(members: number, roles: CompanyRole[] = []) {
    const { founder, company, member } = await ctx.board(`Board ${Math.random().toString(36).slice(2, 8)}`);
    const voters: Person[] = [founder];
    for (let index = 0; index < members; index += 1) voters.push(await member("member"));
    const others: Person[] = [];
    for (const role of roles) others.push(await member(role));
    return { founder, company, voters, others };
  }

  async function create(creator: Person, fields: Record<string, unknown> = {}) {
    return request(ctx.app)
      .post("/api/resolutions")
      .set("Authorization", creator.bearer)
      .send({
        title: "Approve the FY27 budget",
        description: "Capex of 2m",
        type: "Ordinary",
        deadline: inAWeek().toISOString(),
        documentIds: [],
        ...fields,
      });
  }
  async function created(creator: Person, fields: Record<string, unknown> = {}): Promise<number> {
    const response = await create(creator, fields);
    expect(response.status).toBe(201);
    return response.body.id as number;
  }
  const vote = (voter: Person, id: number, choice: string, comment?: string) =>
    request(ctx.app).post(`/api/resolutions/${id}/vote`).set("Authorization", voter.bearer).send({ vote: choice, comment });
  const details = async (viewer: Person, id: number): Promise<ResolutionDetails> => {
    const response = await request(ctx.app).get(`/api/resolutions/${id}`).set("Authorization", viewer.bearer);
    expect(response.status).toBe(200);
    return response.body as ResolutionDetails;
  };
  async function allVote(voters: Person[], id: number, choices: string[]) {
    for (const [index, choice] of choices.entries()) expect((await vote(voters[index]!, id, choice)).status).toBe(200);
  }

  return { inAWeek, boardWith, create, created, vote, details, allVote };
}
