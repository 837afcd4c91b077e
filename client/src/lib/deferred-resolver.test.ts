import type { Resolver } from "react-hook-form";
import { deferredResolver } from "@/lib/deferred-resolver";

type Values = { name: string };
const accepting: Resolver<Values> = async (values) => ({ values, errors: {} });
const resolverArgs = [{ name: "Ada" }, undefined, { fields: {}, shouldUseNativeValidation: undefined }] as Parameters<Resolver<Values>>;

describe("deferredResolver", () => {
  it("loads the validation once, however often it is prefetched or used", async () => {
    const load = vi.fn(async () => accepting);
    const { resolver, prefetch } = deferredResolver(load);
    expect(load).not.toHaveBeenCalled();
    await Promise.all([prefetch(), prefetch(), resolver(...resolverArgs)]);
    expect(await resolver(...resolverArgs)).toEqual({ values: { name: "Ada" }, errors: {} });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("asks again after a failed download", async () => {
    const load = vi.fn<() => Promise<Resolver<Values>>>().mockRejectedValueOnce(new Error("offline")).mockResolvedValue(accepting);
    const { resolver, prefetch } = deferredResolver(load);
    await expect(prefetch()).rejects.toThrow("offline");
    expect(await resolver(...resolverArgs)).toEqual({ values: { name: "Ada" }, errors: {} });
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("prefetches from the form's first focus or press, and a failed download there is left for the submit to report", async () => {
    const load = vi.fn<() => Promise<Resolver<Values>>>().mockRejectedValueOnce(new Error("offline")).mockResolvedValue(accepting);
    const { resolver, prefetchOnTouch } = deferredResolver(load);
    prefetchOnTouch.onPointerDown();
    expect(load).toHaveBeenCalledTimes(1);
    // The failure is forgotten (no unhandled rejection): the next touch asks again.
    await vi.waitFor(() => {
      prefetchOnTouch.onFocus();
      expect(load).toHaveBeenCalledTimes(2);
    });
    expect(await resolver(...resolverArgs)).toEqual({ values: { name: "Ada" }, errors: {} });
    expect(load).toHaveBeenCalledTimes(2);
  });
});
