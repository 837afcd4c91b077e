/** `load` asked for once and its answer shared by every caller; a failure is forgotten, so the next call asks again. */
export function loadOnce<Value>(load: () => Promise<Value>): () => Promise<Value> {
  let loading: Promise<Value> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
