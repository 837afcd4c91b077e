import { eq } from "drizzle-orm";
import request from "supertest";
import type { ResolutionDetails } from "../../../shared/resolutions";
import type { SignOptions, WrittenRule } from "../../../shared/written-resolutions";
import { companies } from "../db/schema";
import { passkeyFixtures } from "./passkey-fixtures";
import type { SoftwareAuthenticator } from "./software-authenticator";
import type { SignedUp, TestContext } from "./test-context";

type Person = SignedUp;

/** Written resolutions through the API: proposing, signing with a passkey (a software authenticator) or the password. */
export function writtenFixtures(ctx: TestContext, appUrl: string) {
  const api = () => request(ctx.app);
  const passkeys = passkeyFixtures(ctx, appUrl);
  /** Each director's software authenticator, once they registered a passkey. */
  const authenticators = new Map<number, SoftwareAuthenticator>();

  /** Sets the board's rule for written resolutions (what Company Settings saves). */
  async function setRule(companyId: number, rule: Partial<WrittenRule>) {
    await ctx.db
      .update(companies)
      .set({
        ...(rule.kind ? { writtenResolutionRule: rule.kind } : {}),
        ...(rule.lapseDays ? { writtenLapseDays: rule.lapseDays } : {}),
        ...(rule.allowWithdrawal !== undefined ? { writtenAllowWithdrawal: rule.allowWithdrawal } : {}),
        ...(rule.meetingDemandPercent ? { writtenMeetingDemandPercent: rule.meetingDemandPercent } : {}),
      })
      .where(eq(companies.id, companyId));
  }

  const propose = (creator: Person, fields: Record<string, unknown> = {}) =>
    api()
      .post("/api/resolutions")
      .set("Authorization", creator.bearer)
      .send({ procedure: "written", title: "Open a Berlin office", description: "Resolved: to lease **2 floors**.", ...fields });

  async function proposed(creator: Person, fields: Record<string, unknown> = {}): Promise<number> {
    const response = await propose(creator, fields);
    expect(response.status).toBe(201);
    return response.body.id as number;
  }

  async function withPasskey(person: Person): Promise<SoftwareAuthenticator> {
    const { authenticator } = await passkeys.withPasskey(person);
    authenticators.set(person.id, authenticator);
    return authenticator;
  }

  const signOptions = (person: Person, id: number, decision: string) =>
    api().post(`/api/resolutions/${id}/sign-options`).set("Authorization", person.bearer).send({ decision });

  async function optionsFor(person: Person, id: number, decision: string): Promise<SignOptions> {
    const response = await signOptions(person, id, decision);
    expect(response.status).toBe(200);
    return response.body as SignOptions;
  }

  const postSignature = (person: Person, id: number, body: Record<string, unknown>) =>
    api().post(`/api/resolutions/${id}/signatures`).set("Authorization", person.bearer).send(body);

  /** Signs with the person's passkey: asks for the statement, has the authenticator answer its options, sends both. */
  async function signWithPasskey(person: Person, id: number, decision: string) {
    const authenticator = authenticators.get(person.id) ?? (await withPasskey(person));
    const { statement, options } = await optionsFor(person, id, decision);
    return postSignature(person, id, { decision, statement, response: authenticator.authenticate(options) });
  }

  async function signed(person: Person, id: number, decision: string): Promise<ResolutionDetails> {
    const response = await signWithPasskey(person, id, decision);
    expect(response.status).toBe(200);
    return response.body as ResolutionDetails;
  }

  const signWithPassword = (person: Person, id: number, decision: string, code?: string) =>
    postSignature(person, id, { decision, password: person.password, ...(code ? { code } : {}) });

  const withdraw = (person: Person, id: number) =>
    api().delete(`/api/resolutions/${id}/signatures/mine`).set("Authorization", person.bearer);

  const certificateJson = (person: Person, id: number) =>
    api().get(`/api/resolutions/${id}/certificate.json`).set("Authorization", person.bearer);

  return {
    setRule,
    propose,
    proposed,
    withPasskey,
    signOptions,
    optionsFor,
    postSignature,
    signWithPasskey,
    signed,
    signWithPassword,
    withdraw,
    certificateJson,
    authenticators,
  };
}
