import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { resetToasts } from "@/components/ui/use-toast";
import { takeFakeProblems } from "@/testing/handle";
import { server } from "@/testing/server";

// jsdom lacks what Radix and the theme provider ask the browser for.
if (typeof window.matchMedia !== "function") {
  Object.defineProperty(window, "matchMedia", {
    writable: true,
    configurable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}
if (typeof globalThis.ResizeObserver === "undefined") {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
Element.prototype.scrollIntoView ??= function scrollIntoView() {};
// jsdom does not scroll: its window.scrollTo only reports that (the long lists write the page's scroll position).
window.scrollTo = () => {};
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => {};
Element.prototype.setPointerCapture ??= () => {};

// findBy*/waitFor give up after 1 s by default. The client suite shares two cores with the server
// suites, and a page's lazy chunk is transformed on first import, which took over 6 s on a loaded
// machine (seen failing at 1 s and at 5 s). A real failure still fails, only later.
configure({ asyncUtilTimeout: 10_000 });

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());

// A console.error during a test fails it (React warnings, act() problems, failed prop types...).
let consoleErrors: unknown[][] = [];
const originalConsoleError = console.error;
beforeEach(() => {
  consoleErrors = [];
  console.error = (...args: unknown[]) => {
    consoleErrors.push(args);
    originalConsoleError(...args);
  };
});

afterEach(() => {
  cleanup();
  server.resetHandlers();
  resetToasts();
  window.localStorage.clear();
  document.documentElement.className = "";
  console.error = originalConsoleError;
  // A fake answer that broke its endpoint's declaration failed its request (msw logs it too): the test fails with why.
  const fakeProblems = takeFakeProblems();
  if (fakeProblems.length > 0) throw new Error(`The fake server broke the API's declarations:\n${fakeProblems.join("\n")}`);
  if (consoleErrors.length > 0) {
    const first = consoleErrors[0]!.map(String).join(" ");
    throw new Error(`console.error was called ${consoleErrors.length} time(s) during the test; first: ${first}`);
  }
});
