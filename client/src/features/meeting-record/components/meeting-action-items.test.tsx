import { screen, waitFor, within } from "@testing-library/react";
import * as meetingRecordApi from "@shared/api/meeting-record";
import type { ApiErrorBody } from "@shared/api-error";
import type { ActionItem, CreateActionItemInput, UpdateActionItemInput } from "@shared/meeting-record";
import { setAuthToken } from "@/lib/auth-token";
import { freezeDateAt } from "@/testing/clock";
import { buildUser } from "@/testing/factories";
import { apiError, handle } from "@/testing/handle";
import { signedInHandlers } from "@/testing/handlers";
import { renderWithProviders, TEST_TOKEN } from "@/testing/render";
import { server } from "@/testing/server";
import { findToast } from "@/testing/toasts";
import { MeetingActionItems, type MeetingActionItemsProps } from "@/features/meeting-record/components/meeting-action-items";

const me = buildUser({ id: 7, companyId: 3 });
const members = [
  { id: 7, name: "Test User" },
  { id: 8, name: "Ann Owner" },
];

freezeDateAt(new Date(2026, 5, 10, 12, 0));

const item = (fields: Partial<ActionItem> & Pick<ActionItem, "id" | "title">): ActionItem => ({
  meetingId: 90,
  meetingTitle: "June board",
  ownerId: 8,
  ownerName: "Ann Owner",
  dueDate: "2026-06-20",
  status: "open",
  ...fields,
});

/** The meeting's list as a store the PATCH and POST handlers change, with the bodies they were sent. */
function serveItems(initial: ActionItem[], refusal?: { status: number; body: ApiErrorBody }) {
  let items = initial;
  const patched: { id: number; body: UpdateActionItemInput }[] = [];
  const posted: CreateActionItemInput[] = [];
  const ofMeeting = { params: { id: 90 } };
  server.use(
    handle(meetingRecordApi.meetingActionItems, () => items, ofMeeting),
    handle(meetingRecordApi.updateActionItem, ({ params, body }) => {
      patched.push({ id: params.id, body });
      items = items.map((entry) => (entry.id === params.id ? { ...entry, ...body } : entry)) as ActionItem[];
      return items.find((entry) => entry.id === params.id) ?? apiError(404, "Not found");
    }),
    handle(
      meetingRecordApi.createActionItem,
      ({ body }) => {
        posted.push(body);
        if (refusal) return apiError(refusal.status, refusal.body);
        const created = item({ id: 99, title: body.title, ownerId: Number(body.ownerId), ownerName: "Ann Owner", dueDate: body.dueDate });
        items = [...items, created];
        return created;
      },
      ofMeeting,
    ),
  );
  return { patched, posted };
}

function renderSection(props: Partial<MeetingActionItemsProps> = {}) {
  setAuthToken(TEST_TOKEN);
  server.use(...signedInHandlers(me));
  return renderWithProviders(
    <MeetingActionItems
      meetingId={90}
      meetingStartsAt="2026-06-05T10:00:00.000Z"
      members={members}
      canManage={false}
      canEditAny={false}
      currentUserId={me.id}
      {...props}
    />,
  );
}

const section = () => screen.findByRole("region", { name: "Action items" });
const rowOf = async (title: string) => (await within(await section()).findByText(title)).closest("li") as HTMLElement;

describe("a meeting's action items", () => {
  it("lists each with its owner, due date and status, overdue ones marked; the owner marks theirs done and reopens it", async () => {
    const { patched } = serveItems([
      item({ id: 1, title: "Send the accounts", ownerId: 7, ownerName: "Test User", dueDate: "2026-06-08" }),
      item({ id: 2, title: "Renew the lease" }),
      item({ id: 3, title: "Book the auditors", status: "done", dueDate: "2026-06-01" }),
    ]);
    const { user } = renderSection();

    const mine = await rowOf("Send the accounts");
    expect(mine).toHaveTextContent("Test User");
    expect(mine).toHaveTextContent("Due June 8, 2026");
    expect(within(mine).getByText("Open")).toBeInTheDocument();
    expect(within(mine).getByText("Overdue")).toBeInTheDocument();
    const done = await rowOf("Book the auditors");
    expect(within(done).getByText("Done")).toBeInTheDocument();
    // Done is never overdue.
    expect(within(done).queryByText("Overdue")).not.toBeInTheDocument();
    // Only the caller's own item can be marked by a member.
    expect(within(await rowOf("Renew the lease")).queryByRole("button")).not.toBeInTheDocument();
    expect(within(done).queryByRole("button")).not.toBeInTheDocument();

    await user.click(within(mine).getByRole("button", { name: "Mark done: Send the accounts" }));
    await waitFor(async () => expect(within(await rowOf("Send the accounts")).getByText("Done")).toBeInTheDocument());
    await user.click(within(await rowOf("Send the accounts")).getByRole("button", { name: "Reopen: Send the accounts" }));
    await waitFor(async () => expect(within(await rowOf("Send the accounts")).getByText("Open")).toBeInTheDocument());
    expect(patched).toEqual([
      { id: 1, body: { status: "done" } },
      { id: 1, body: { status: "open" } },
    ]);
    expect(screen.queryByRole("form", { name: "Add action item" })).not.toBeInTheDocument();
  });

  it("lets a founder or admin mark anyone's item, and says when there are none", async () => {
    serveItems([item({ id: 2, title: "Renew the lease" })]);
    renderSection({ canEditAny: true });
    expect(await within(await rowOf("Renew the lease")).findByRole("button", { name: "Mark done: Renew the lease" })).toBeInTheDocument();

    server.use(handle(meetingRecordApi.meetingActionItems, () => [], { params: { id: 91 } }));
    renderSection({ meetingId: 91 });
    expect(await screen.findByText("No action items yet.")).toBeInTheDocument();
  });

  it("adds an item for a keeper: checked before sending, the owner chosen among the members, the server's refusal on its field", async () => {
    const { posted } = serveItems([], {
      status: 400,
      body: {
        message: "Due date must be on or after the meeting's date",
        errors: [{ path: "dueDate", message: "Due date must be on or after the meeting's date" }],
      },
    });
    const { user } = renderSection({ canManage: true });
    const form = await screen.findByRole("form", { name: "Add action item" });
    expect(within(form).getByLabelText("Due date")).toHaveAttribute("min", "2026-06-05");

    await user.click(within(form).getByRole("button", { name: "Add action item" }));
    expect(await within(form).findByText("Title is required")).toBeInTheDocument();
    expect(within(form).getByText("Choose an owner")).toBeInTheDocument();
    expect(posted).toEqual([]);

    await user.type(within(form).getByLabelText("Action"), "File the return");
    await user.click(within(form).getByRole("combobox", { name: "Owner" }));
    await user.click(await screen.findByRole("option", { name: "Ann Owner" }));
    await user.type(within(form).getByLabelText("Due date"), "2026-06-04");
    await user.click(within(form).getByRole("button", { name: "Add action item" }));
    expect(await within(form).findByText("Due date must be on or after the meeting's date")).toBeInTheDocument();
    expect(await findToast("The action item was not added")).toBeInTheDocument();
    expect(posted).toEqual([{ title: "File the return", ownerId: 8, dueDate: "2026-06-04" }]);
  });

  it("adds an item and lists it", async () => {
    const { posted } = serveItems([]);
    const { user } = renderSection({ canManage: true });
    const form = await screen.findByRole("form", { name: "Add action item" });
    await user.type(within(form).getByLabelText("Action"), "File the return");
    await user.click(within(form).getByRole("combobox", { name: "Owner" }));
    await user.click(await screen.findByRole("option", { name: "Ann Owner" }));
    await user.type(within(form).getByLabelText("Due date"), "2026-06-12");
    await user.click(within(form).getByRole("button", { name: "Add action item" }));
    expect(await rowOf("File the return")).toHaveTextContent("Due June 12, 2026");
    expect(posted).toEqual([{ title: "File the return", ownerId: 8, dueDate: "2026-06-12" }]);
    expect(within(form).getByLabelText("Action")).toHaveValue("");
  });
});
