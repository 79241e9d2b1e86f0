import { config } from '../config';
import { tracer } from '../tracer';
import { withoutCallLogging } from './no-call-logging';

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

/**
 * An AWS SDK client of lib/, as `clientFor` keeps it: in the configured region, on the local
 * stand-in's endpoint when one is set (with placeholder credentials: never real ones locally),
 * without the SDK's call logging, and each call an X-Ray subsegment (a no-op outside Lambda).
 */
export function sdkClientFor<C extends { middlewareStack: { remove(name: string): boolean } }>(
  endpoint: () => string | undefined,
  make: (options: { region: string; endpoint?: string; credentials?: { accessKeyId: string; secretAccessKey: string } }) => C,
): () => C {
  return clientFor(
    () => `${config.region} ${endpoint()}`,
    () => {
      const local = endpoint();
      const client = withoutCallLogging(
        make({ region: config.region, ...(local && { endpoint: local, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }) }),
      );
      tracer.captureAWSv3Client(client);
      return client;
    },
  );
}
