/**
 * A client built on first use and kept while the settings it was built from (`key`: its region
 * and endpoint) stay the same: deployed, one per cold start. The in-process tests load lib/ once
 * per worker and point each test file at its own local queue or bucket; a client of an earlier
 * file's endpoint is then closed and replaced, never reused.
 */
export function clientFor<C>(key: () => string, build: () => C): () => C {
  let built: { key: string; client: C } | undefined;
  return () => {
    const k = key();
    if (built?.key !== k) {
      (built?.client as { destroy?(): void } | undefined)?.destroy?.();
      built = { key: k, client: build() };
    }
    return built.client;
  };
}
