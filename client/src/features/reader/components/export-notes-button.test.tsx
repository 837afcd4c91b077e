import { screen, waitFor } from "@testing-library/react";
import { HttpResponse } from "msw";
import * as readingApi from "@shared/api/reading";
import { apiError, handle } from "@/testing/handle";
import { renderWithProviders } from "@/testing/render";
import { server } from "@/testing/server";
import { findToast } from "@/testing/toasts";
import { ExportNotesButton } from "@/features/reader/components/export-notes-button";

describe("Export my notes", () => {
  it("saves the notes as Markdown or PDF under the server's file name, and says when it cannot", async () => {
    const formats: string[] = [];
    server.use(
      handle(readingApi.exportNotes, ({ query }) => {
        formats.push(query.format);
        if (query.format === "pdf") return apiError(404, "No such meeting");
        return new HttpResponse("# My notes", {
          headers: { "Content-Type": "text/markdown", "Content-Disposition": 'attachment; filename="Q3 Board - my notes.md"' },
        });
      }),
    );
    const saved: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const objectUrls = vi.spyOn(URL, "createObjectURL").mockReturnValue("blob:notes");
    const { user } = renderWithProviders(<ExportNotesButton meetingId={11} />);

    await user.click(screen.getByRole("button", { name: "Export my notes as Markdown" }));
    await waitFor(() => expect(saved).toEqual(["Q3 Board - my notes.md"]));

    await user.click(screen.getByRole("button", { name: "Export my notes as PDF" }));
    expect(await findToast("Your notes could not be exported")).toHaveTextContent("No such meeting");
    expect(formats).toEqual(["md", "pdf"]);
    click.mockRestore();
    objectUrls.mockRestore();
  });
});
