/**
 * What every function's bundle uses in place of `@smithy/core/event-streams` (an esbuild alias,
 * LAMBDA_ALIASES in infra/constructs/table-function.ts). The SDK's protocols load it with a
 * dynamic import only for an operation that has an event-stream member; the DynamoDB, SQS, API
 * Gateway, S3 and SES operations this service calls have none, yet esbuild bundles the import
 * target: about 15–19 KB of every bundle. Should a future call need event streams, it fails here,
 * by name, instead of sending a malformed request.
 *
 * The S3 client resolves its event-stream marshaller when it is constructed (for
 * SelectObjectContent, which nothing here calls): so the provider hands back a marshaller that
 * refuses when used, and the config resolver is the SDK's own one-liner.
 */
const refuse = (): never => {
  throw new Error('event streams are left out of this bundle (lib/aws/no-event-streams.ts): remove the alias to use them');
};

export class EventStreamSerde {
  constructor() {
    refuse();
  }
}

/** A marshaller that refuses to (de)serialize: constructing a client is fine, streaming events is not. */
export const eventStreamSerdeProvider = () => ({ serialize: refuse, deserialize: refuse });

/** As in @smithy/core: the client's marshaller comes from its provider. */
export const resolveEventStreamSerdeConfig = <T extends { eventStreamSerdeProvider: (input: T) => unknown }>(input: T) =>
  Object.assign(input, { eventStreamMarshaller: input.eventStreamSerdeProvider(input) });
