import { render, screen } from "@testing-library/react";
import { Markdown, markdownBlocks } from "@/features/resolutions/lib/markdown";

describe("a written resolution's Markdown", () => {
  it("reads headings, paragraphs, lists and quotes, a blank line ending each", () => {
    expect(markdownBlocks("# Title\nFirst line\nsecond line\n\n- one\n- two\n  more\n\n3. three\n4) four\n\n> quoted")).toEqual([
      { kind: "heading", level: 1, text: "Title" },
      { kind: "paragraph", lines: ["First line", "second line"] },
      { kind: "list", ordered: false, start: 1, items: ["one", "two more"] },
      { kind: "list", ordered: true, start: 3, items: ["three", "four"] },
      { kind: "quote", lines: ["quoted"] },
    ]);
  });

  it("renders bold, italics and code, never markup in the text, and a link's address as text", () => {
    const { container } = render(
      <Markdown
        source={'**Bold** and *italic* and `code` <script>alert(1)</script> [site](javascript:alert(1)) <img src=x onerror="alert(1)">'}
      />,
    );
    expect(screen.getByText("Bold").tagName).toBe("STRONG");
    expect(screen.getByText("italic").tagName).toBe("EM");
    expect(screen.getByText("code").tagName).toBe("CODE");
    expect(container.querySelector("script, img, a")).toBeNull();
    expect(container.textContent).toContain("<script>alert(1)</script>");
    expect(container.textContent).toContain("site (javascript:alert(1))");
  });

  it("starts its headings below the dialog's own", () => {
    render(<Markdown source={"# One\n## Two"} />);
    expect(screen.getByRole("heading", { name: "One" }).tagName).toBe("H4");
    expect(screen.getByRole("heading", { name: "Two" }).tagName).toBe("H5");
  });
});
