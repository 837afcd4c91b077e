import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { CalendarDays, Plus } from "lucide-react";
import { useState } from "react";
import { ListQueryState, ListScreen, ListSkeleton, type ListQuery } from "@/components/list-screen";

const loaded = (data: string[]): ListQuery<string> => ({ data, isLoading: false, isError: false });

function Fruits({ query, items }: { query: ListQuery<string>; items?: string[] }) {
  return (
    <ListQueryState
      query={query}
      items={items}
      loading={<ListSkeleton label="Loading fruit" itemClassName="h-4" />}
      error="The fruit could not be loaded."
      empty={{ icon: CalendarDays, title: "No fruit", message: "Nothing in the bowl." }}
    >
      {(shown) => (
        <ul aria-label="Fruit">
          {shown.map((fruit) => (
            <li key={fruit}>{fruit}</li>
          ))}
        </ul>
      )}
    </ListQueryState>
  );
}

describe("ListQueryState", () => {
  it("shows the named placeholder while the query loads, and nothing else", () => {
    render(<Fruits query={{ data: undefined, isLoading: true, isError: false }} />);
    expect(screen.getByRole("status", { name: "Loading fruit" })).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(screen.queryByText("Nothing in the bowl.")).not.toBeInTheDocument();
  });

  it("announces the screen's error sentence when the query fails", () => {
    render(<Fruits query={{ data: undefined, isLoading: false, isError: true }} />);
    expect(screen.getByRole("alert")).toHaveTextContent("The fruit could not be loaded.");
    expect(screen.queryByRole("list")).not.toBeInTheDocument();
  });

  it("shows the empty presentation when nothing of the list is shown, else the items", () => {
    const { rerender } = render(<Fruits query={loaded(["apple", "pear"])} items={[]} />);
    expect(screen.getByText("No fruit")).toBeInTheDocument();
    expect(screen.getByText("Nothing in the bowl.")).toBeInTheDocument();

    rerender(<Fruits query={loaded(["apple", "pear"])} items={["pear"]} />);
    expect(screen.getByRole("list", { name: "Fruit" })).toHaveTextContent("pear");
    expect(screen.queryByText("apple")).not.toBeInTheDocument();

    rerender(<Fruits query={loaded(["apple", "pear"])} />);
    expect(screen.getAllByRole("listitem").map((item) => item.textContent)).toEqual(["apple", "pear"]);
  });
});

function Screen({ onAdd }: { onAdd?: () => void }) {
  const [search, setSearch] = useState("");
  return (
    <ListScreen
      title="Fruit"
      action={onAdd && { label: "Add Fruit", icon: Plus, onClick: onAdd }}
      search={{ label: "Search fruit", placeholder: "Search fruit...", value: search, onChange: setSearch }}
      tabs={[
        { value: "ripe", label: "Ripe", content: <p>Ripe: {search || "all"}</p> },
        { value: "green", label: "Green", content: <p>Green: {search || "all"}</p> },
      ]}
    />
  );
}

describe("ListScreen", () => {
  it("has the title, the action when given, the search, and the tabs with the first one open", async () => {
    const user = userEvent.setup();
    const onAdd = vi.fn();
    const { rerender } = render(<Screen onAdd={onAdd} />);
    expect(screen.getByRole("heading", { level: 1, name: "Fruit" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Add Fruit" }));
    expect(onAdd).toHaveBeenCalledOnce();

    expect(screen.getByRole("tabpanel", { name: "Ripe" })).toHaveTextContent("Ripe: all");
    await user.type(screen.getByRole("searchbox", { name: "Search fruit" }), "fig");
    expect(screen.getByRole("tabpanel", { name: "Ripe" })).toHaveTextContent("Ripe: fig");
    await user.click(screen.getByRole("tab", { name: "Green" }));
    expect(screen.getByRole("tabpanel", { name: "Green" })).toHaveTextContent("Green: fig");

    rerender(<Screen />);
    expect(screen.queryByRole("button", { name: "Add Fruit" })).not.toBeInTheDocument();
  });
});
