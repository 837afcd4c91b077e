import { screen, within } from "@testing-library/react";
import * as documentsApi from "@shared/api/documents";
import type { RecentDocument } from "@shared/documents";
import { buildUser } from "@/testing/factories";
import { handle } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";

const member = buildUser({ id: 7, companyId: 3, role: "member" });

describe("the dashboard", () => {
  it("lists recent documents with size and uploader, or says there are none", async () => {
    const recent: RecentDocument[] = [
      {
        id: 1,
        name: "Q2 Accounts.pdf",
        fileSize: 1024,
        uploader: "Fay Founder",
        createdAt: "2026-05-20T10:00:00.000Z",
        version: 1,
        replacedAt: null,
        changedSinceRead: false,
        readVersion: null,
      },
    ];
    server.use(handle(documentsApi.recentDocuments, () => recent));
    const first = renderApp({ path: "/", signedInAs: member });
    const panel = await screen.findByRole("region", { name: "Recent Documents" }).catch(() => screen.findByLabelText("Recent Documents"));
    expect(await within(panel).findByText("Q2 Accounts.pdf")).toBeInTheDocument();
    expect(within(panel).getByText("1.0 KB")).toBeInTheDocument();
    expect(within(panel).getByText("Uploaded by Fay Founder • May 20, 2026")).toBeInTheDocument();
    expect(within(panel).getByRole("link", { name: "View all" })).toHaveAttribute("href", "/documents");
    first.unmount();

    server.use(handle(documentsApi.recentDocuments, () => []));
    renderApp({ path: "/", signedInAs: member });
    expect(await screen.findByText("No documents uploaded yet.")).toBeInTheDocument();
  });

  it("'Upload document' lands on /documents with the upload dialog open", async () => {
    const { user } = renderApp({ path: "/", signedInAs: member });
    await user.click(await screen.findByRole("link", { name: "Upload document" }));
    expect(await screen.findByRole("dialog", { name: "Upload Document" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { level: 1, name: "Documents", hidden: true })).toBeInTheDocument();
  });
});
