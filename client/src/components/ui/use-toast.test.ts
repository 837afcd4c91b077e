import { act, renderHook } from "@testing-library/react";
import { dismissToast, toast, TOAST_REMOVE_DELAY, useToast } from "@/components/ui/use-toast";

describe("toast store", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("keeps one toast at a time: the newest", () => {
    const { result } = renderHook(() => useToast());
    act(() => {
      toast({ title: "First" });
      toast({ title: "Second", variant: "destructive" });
    });
    expect(result.current.toasts).toHaveLength(1);
    expect(result.current.toasts[0]).toMatchObject({ title: "Second", variant: "destructive", open: true });
  });

  it("closes a dismissed toast at once and removes it only after the removal delay", () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useToast());
    let id = "";
    act(() => {
      id = toast({ title: "Saved" }).id;
    });
    act(() => dismissToast(id));
    expect(result.current.toasts).toEqual([expect.objectContaining({ id, open: false })]);

    act(() => vi.advanceTimersByTime(TOAST_REMOVE_DELAY - 1));
    expect(result.current.toasts).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.toasts).toHaveLength(0);
    expect(TOAST_REMOVE_DELAY).toBe(1_000_000);
  });
});
