import request from "supertest";
import type { AgendaItemInput } from "../../../shared/agenda";
import { formatAgenda } from "../../../shared/meetings";
import { documents, resolutions } from "../db/schema";
import { scheduleMeeting } from "./factories";
import type { SignedUp, TestContext } from "./test-context";

// What the agenda item tests share: a board with a meeting, its agenda requests, and papers and resolutions to attach.

const day = 24 * 60 * 60_000;

/** The agenda the meeting of `setup` is scheduled with, as a numbered list. */
export const generated = [
  { title: "Call to order", duration: 5, description: "" },
  { title: "Financial review", duration: 30, description: "Q3 accounts\nand the forecast" },
  { title: "Any other business", duration: 10, description: "" },
];

export function agendaItemsFixtures(ctx: Pick<TestContext, "app" | "clock" | "board" | "db">) {
  const api = () => request(ctx.app);

  /** A board whose member `creator` scheduled a meeting (`generated` as its agenda). */
  async function setup(name = "Acme Holdings") {
    const { founder, company, member } = await ctx.board(name);
    const admin = await member("admin");
    const creator = await member("member");
    const other = await member("member");
    const observer = await member("observer");
    const meetingId = await schedule(creator, formatAgenda(generated));
    return { founder, company, admin, creator, other, observer, meetingId };
  }

  const schedule = (user: SignedUp, agenda: string, start = new Date(ctx.clock.now().getTime() + 3 * day)) =>
    scheduleMeeting(ctx.app, user, start, { agenda });

  const getAgenda = (user: SignedUp, meetingId: number) => api().get(`/api/meetings/${meetingId}/agenda`).set("Authorization", user.bearer);
  const putAgenda = (user: SignedUp, meetingId: number, items: AgendaItemInput[]) =>
    api().put(`/api/meetings/${meetingId}/agenda`).set("Authorization", user.bearer).send({ items });

  async function paper(companyId: number, category = "Financial"): Promise<number> {
    const [row] = await ctx.db
      .insert(documents)
      .values({ companyId, name: "Accounts.pdf", fileType: "application/pdf", fileSize: 10, category })
      .returning({ id: documents.id });
    return row!.id;
  }

  async function motion(companyId: number): Promise<number> {
    const [row] = await ctx.db
      .insert(resolutions)
      .values({
        companyId,
        title: "Approve accounts",
        description: "",
        type: "Ordinary",
        deadline: new Date(ctx.clock.now().getTime() + day),
      })
      .returning({ id: resolutions.id });
    return row!.id;
  }

  /** Everything an agenda write touches: the items, the meeting's agenda text and its document's size. */
  async function stateOf(user: SignedUp, meetingId: number) {
    const agenda = await getAgenda(user, meetingId);
    const document = await api().get(`/api/documents/${meetingId}`).set("Authorization", user.bearer);
    return { items: agenda.body.items, content: document.body.content, fileSize: document.body.fileSize };
  }

  const errorPaths = (body: { errors?: { path: string }[] }) => body.errors?.map((error) => error.path);

  return { api, setup, schedule, getAgenda, putAgenda, paper, motion, stateOf, errorPaths };
}
