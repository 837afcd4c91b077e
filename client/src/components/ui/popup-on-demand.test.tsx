import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactElement } from "react";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { Sheet, SheetContent, SheetTitle, SheetTrigger } from "@/components/ui/sheet";
import { usePopupOnDemand } from "@/components/ui/popup-on-demand";

/** The module a menu loads on demand: Radix's menu around the trigger it is given. */
const menuModule = {
  ChoicesMenu({ trigger }: { trigger: ReactElement }) {
    return (
      <DropdownMenu>
        <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
        <DropdownMenuContent>
          <DropdownMenuItem>First</DropdownMenuItem>
          <DropdownMenuItem>Second</DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    );
  },
};

/** A loader of its own (each test downloads afresh), answered when `arrive` is called, and how often it was called. */
function loader() {
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const load = vi.fn(async () => {
    await arrived;
    return menuModule;
  });
  return { load, arrive: () => arrive() };
}

function Choices({ load }: { load: () => Promise<typeof menuModule> }) {
  const { popup: menu, standIn, triggerRef } = usePopupOnDemand("menu", load);
  const button = (props: object) => (
    <button type="button" className="choices" {...props}>
      Choices
    </button>
  );
  if (!menu) return button(standIn);
  return <menu.ChoicesMenu trigger={button({ ref: triggerRef })} />;
}

describe("a menu loaded on demand", () => {
  it("stands in as a closed menu button and downloads nothing until it is pointed at, focused or pressed", async () => {
    const { load } = loader();
    render(<Choices load={load} />);
    const button = screen.getByRole("button", { name: "Choices" });
    expect(button).toHaveAttribute("aria-haspopup", "menu");
    expect(button).toHaveAttribute("aria-expanded", "false");
    expect(button).toHaveAttribute("data-state", "closed");
    expect(load).not.toHaveBeenCalled();

    await userEvent.setup().hover(button);
    expect(load).toHaveBeenCalledTimes(1);
    // Pointed at, it starts the download but stays the same button.
    expect(screen.getByRole("button", { name: "Choices" })).toBe(button);
  });

  it("opens at the first click, once its code has arrived, with focus in the menu", async () => {
    const { load, arrive } = loader();
    const user = userEvent.setup();
    render(<Choices load={load} />);
    await user.click(screen.getByRole("button", { name: "Choices" }));
    expect(screen.queryByRole("menu")).not.toBeInTheDocument();

    arrive();
    const menu = await screen.findByRole("menu");
    await waitFor(() => expect(menu).toHaveFocus());
    // A modal menu hides the rest of the page from assistive technology meanwhile.
    expect(screen.getByRole("button", { name: "Choices", hidden: true })).toHaveAttribute("aria-expanded", "true");

    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("menu")).not.toBeInTheDocument());
    expect(screen.getByRole("button", { name: "Choices" })).toHaveFocus();
  });

  it.each([
    ["Enter", "{Enter}"],
    ["Space", " "],
    ["ArrowDown", "{ArrowDown}"],
  ])("opens at the first %s with focus on the first item, as Radix's own trigger does", async (_key, keys) => {
    const { load, arrive } = loader();
    const user = userEvent.setup();
    render(<Choices load={load} />);
    await user.tab();
    expect(screen.getByRole("button", { name: "Choices" })).toHaveFocus();
    await user.keyboard(keys);

    arrive();
    await screen.findByRole("menu");
    await waitFor(() => expect(screen.getByRole("menuitem", { name: "First" })).toHaveFocus());
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("does not open if Escape is pressed while its code downloads", async () => {
    const { load, arrive } = loader();
    const user = userEvent.setup();
    render(<Choices load={load} />);
    await user.tab();
    await user.keyboard("{Enter}");
    await user.keyboard("{Escape}");

    arrive();
    await load.mock.results[0]!.value;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole("menu")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Choices" })).toHaveFocus();

    // The next press opens it.
    await user.keyboard("{Enter}");
    await waitFor(() => expect(screen.getByRole("menuitem", { name: "First" })).toHaveFocus());
  });

  it("is the real menu at once where its code has arrived before", async () => {
    const { load, arrive } = loader();
    arrive();
    const user = userEvent.setup();
    const first = render(<Choices load={load} />);
    await user.click(screen.getByRole("button", { name: "Choices" }));
    await screen.findByRole("menu");
    first.unmount();

    render(<Choices load={load} />);
    await user.click(screen.getByRole("button", { name: "Choices" }));
    expect(screen.getByRole("menu")).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });
});

/** A dialog loaded on demand: Radix's dialog (the slide-over) around the trigger it is given. */
const dialogModule = {
  Panel({ trigger }: { trigger: ReactElement }) {
    return (
      <Sheet>
        <SheetTrigger asChild>{trigger}</SheetTrigger>
        <SheetContent aria-describedby={undefined}>
          <SheetTitle>Panel</SheetTitle>
          <a href="/somewhere">Somewhere</a>
        </SheetContent>
      </Sheet>
    );
  },
};

function PanelButton({ load }: { load: () => Promise<typeof dialogModule> }) {
  const { popup, standIn, triggerRef } = usePopupOnDemand("dialog", load);
  const button = (props: object) => (
    <button type="button" {...props}>
      Open panel
    </button>
  );
  if (!popup) return button(standIn);
  return <popup.Panel trigger={button({ ref: triggerRef })} />;
}

describe("a dialog loaded on demand", () => {
  it.each([
    ["a click", async (user: ReturnType<typeof userEvent.setup>) => user.click(screen.getByRole("button", { name: "Open panel" }))],
    [
      "Enter",
      async (user: ReturnType<typeof userEvent.setup>) => {
        await user.tab();
        await user.keyboard("{Enter}");
      },
    ],
  ])("opens at %s with focus inside, and gives focus back to its button when closed", async (_press, press) => {
    let arrive = () => {};
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    const load = async () => {
      await arrived;
      return dialogModule;
    };
    const user = userEvent.setup();
    render(<PanelButton load={load} />);
    expect(screen.getByRole("button", { name: "Open panel" })).toHaveAttribute("aria-haspopup", "dialog");
    await press(user);

    arrive();
    const dialog = await screen.findByRole("dialog", { name: "Panel" });
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(screen.getByRole("button", { name: "Open panel" })).toHaveFocus();
  });
});
