import { screen, waitFor, within } from "@testing-library/react";
import * as authApi from "@shared/api/auth";
import * as documentsApi from "@shared/api/documents";
import * as notificationsApi from "@shared/api/notifications";
import type { LibraryDocument } from "@shared/documents";
import type { AppNotification } from "@shared/notifications";
import { apiUrl } from "@/lib/api-client";
import { buildUser } from "@/testing/factories";
import { handle } from "@/testing/handle";
import { installFakeEventSource } from "@/testing/fake-event-source";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";

const me = buildUser({ id: 7, companyId: 3, role: "member" });
const notificationsRead = apiUrl(notificationsApi.listNotifications);
const libraryRead = apiUrl(documentsApi.listLibrary, { params: { companyId: 3 } });
const documentsRead = apiUrl(documentsApi.listDocuments, { query: {} });

/** Every request's path, in order, from the moment this is called. */
function recordRequests() {
  const paths: string[] = [];
  server.events.on("request:start", ({ request }) => paths.push(new URL(request.url).pathname));
  return { count: (path: string) => paths.filter((each) => each === path).length };
}

afterEach(() => {
  server.events.removeAllListeners();
});

function libraryDocument(id: number, name: string): LibraryDocument {
  return {
    id,
    name,
    fileType: "application/pdf",
    fileSize: 1024,
    content: null,
    category: "General",
    companyId: 3,
    uploadedBy: 8,
    createdAt: "2026-05-20T10:00:00.000Z",
    hasFile: true,
    version: 1,
    replacedAt: null,
    pages: null,
    readingMinutes: null,
    changedSinceRead: false,
    readVersion: null,
    truncated: false,
    uploader: "Fay Founder",
  };
}

/** Renders the signed-in app at `path` and opens the stream it starts. */
async function renderLive(path: string) {
  const streams = installFakeEventSource();
  const rendered = renderApp({ path, signedInAs: me });
  await waitFor(() => expect(streams.created()).toHaveLength(1));
  streams.latest().open();
  return { ...rendered, streams };
}

describe("live events", () => {
  it("a notification makes the bell ask for the notifications again", async () => {
    const notifications: AppNotification[] = [];
    server.use(handle(notificationsApi.listNotifications, () => notifications));
    const requests = recordRequests();
    const { streams } = await renderLive("/documents");
    await screen.findByRole("button", { name: "Notifications" });
    await waitFor(() => expect(requests.count(notificationsRead)).toBe(1));

    notifications.push({
      id: 12,
      kind: "resolutionCreated",
      companyId: 3,
      title: "Vote on the budget",
      body: "A resolution awaits your vote.",
      link: "/resolutions/7",
      readAt: null,
      createdAt: new Date().toISOString(),
    });
    streams.latest().send("notification", { id: 12 });
    expect(await screen.findByRole("button", { name: "Notifications, 1 unread" })).toBeInTheDocument();
    expect(requests.count(notificationsRead)).toBe(2);
  });

  it("a document added or removed makes the library ask again", async () => {
    const library = [libraryDocument(1, "Q2 Accounts.pdf")];
    server.use(handle(documentsApi.listLibrary, () => library, { params: { companyId: 3 } }));
    const requests = recordRequests();
    const { streams } = await renderLive("/documents");
    expect(await screen.findByText("Q2 Accounts.pdf")).toBeInTheDocument();

    library.unshift(libraryDocument(2, "Board minutes.pdf"));
    streams.latest().send("document", { documentId: 2, change: "added" });
    expect(await screen.findByText("Board minutes.pdf")).toBeInTheDocument();

    library.splice(1, 1);
    streams.latest().send("document", { documentId: 1, change: "removed" });
    await waitFor(() => expect(screen.queryByText("Q2 Accounts.pdf")).not.toBeInTheDocument());
    expect(requests.count(libraryRead)).toBe(3);
  });

  it("a meeting scheduled or changed makes the meetings list ask again", async () => {
    const requests = recordRequests();
    const { streams } = await renderLive("/meetings");
    await waitFor(() => expect(requests.count(documentsRead)).toBe(1));
    streams.latest().send("meeting", { meetingId: 5 });
    await waitFor(() => expect(requests.count(documentsRead)).toBe(2));
  });

  it("reopened after a gap, reads what is on screen again once, since events may have been missed", async () => {
    const requests = recordRequests();
    const { streams } = await renderLive("/documents");
    await screen.findByText("No documents found");
    await waitFor(() => expect(requests.count(notificationsRead)).toBe(1));
    expect(requests.count(libraryRead)).toBe(1);

    streams.latest().drop();
    streams.latest().open();
    await waitFor(() => expect(requests.count(libraryRead)).toBe(2));
    await waitFor(() => expect(requests.count(notificationsRead)).toBe(2));
  });

  it("closes the stream on sign-out", async () => {
    server.use(handle(authApi.logout, () => {}));
    const { streams, user } = await renderLive("/documents");
    await user.click(within(await screen.findByRole("list", { name: "Account" })).getByRole("button", { name: "Logout" }));
    expect(await screen.findByRole("button", { name: "Sign in" })).toBeInTheDocument();
    expect(streams.created()).toHaveLength(1);
    expect(streams.latest().closed).toBe(true);
  });
});
