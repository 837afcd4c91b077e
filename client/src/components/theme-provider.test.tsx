import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { THEME_STORAGE_KEY, ThemeProvider, useTheme } from "@/components/theme-provider";

function ThemeProbe() {
  const { theme, resolvedTheme, setTheme } = useTheme();
  return (
    <div>
      <p>
        theme={theme} resolved={resolvedTheme}
      </p>
      <button type="button" onClick={() => setTheme("dark")}>
        Dark
      </button>
      <button type="button" onClick={() => setTheme("system")}>
        System
      </button>
    </div>
  );
}

/** A controllable prefers-color-scheme for the duration of one test. */
function mockSystemDark(initial: boolean) {
  const listeners = new Set<() => void>();
  const media = {
    matches: initial,
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
  };
  const original = window.matchMedia;
  window.matchMedia = (() => media) as unknown as typeof window.matchMedia;
  return {
    set(dark: boolean) {
      media.matches = dark;
      for (const listener of listeners) listener();
    },
    restore() {
      window.matchMedia = original;
    },
  };
}

const html = document.documentElement;

describe("theme", () => {
  it("defaults to light, even when the system prefers dark", () => {
    const system = mockSystemDark(true);
    try {
      render(
        <ThemeProvider>
          <ThemeProbe />
        </ThemeProvider>,
      );
      expect(screen.getByText("theme=light resolved=light")).toBeInTheDocument();
      expect(html).toHaveClass("light");
      expect(html).not.toHaveClass("dark");
    } finally {
      system.restore();
    }
  });

  it("puts `dark` on <html> and remembers the choice under quorum.theme", async () => {
    render(
      <ThemeProvider>
        <ThemeProbe />
      </ThemeProvider>,
    );
    await userEvent.click(screen.getByRole("button", { name: "Dark" }));
    expect(html).toHaveClass("dark");
    expect(html).not.toHaveClass("light");
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe("dark");
  });

  it("starts from the stored choice", () => {
    window.localStorage.setItem(THEME_STORAGE_KEY, "dark");
    render(
      <ThemeProvider>
        <ThemeProbe />
      </ThemeProvider>,
    );
    expect(html).toHaveClass("dark");
  });

  it("follows the operating system in system mode", () => {
    window.localStorage.setItem(THEME_STORAGE_KEY, "system");
    const system = mockSystemDark(false);
    try {
      render(
        <ThemeProvider>
          <ThemeProbe />
        </ThemeProvider>,
      );
      expect(html).toHaveClass("light");
      act(() => system.set(true));
      expect(html).toHaveClass("dark");
      expect(screen.getByText("theme=system resolved=dark")).toBeInTheDocument();
    } finally {
      system.restore();
    }
  });
});
