/**
 * What every function's bundle uses in place of `@smithy/core/event-streams` (an esbuild alias,
 * LAMBDA_ALIASES in infra/constructs/table-function.ts). The SDK's protocols load it with a
 * dynamic import only for an operation that has an event-stream member; the DynamoDB, SQS and API
 * Gateway operations this service calls have none, yet esbuild bundles the import target: about
 * 15–19 KB of every bundle. Should a future call need event streams, it fails here, by name,
 * instead of sending a malformed request.
 */
const refuse = (): never => {
  throw new Error('event streams are left out of this bundle (lib/aws/no-event-streams.ts): remove the alias to use them');
};

export class EventStreamSerde {
  constructor() {
    refuse();
  }
}

export const eventStreamSerdeProvider = refuse;
