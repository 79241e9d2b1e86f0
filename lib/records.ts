/**
 * What a queue or stream consumer in lib/ receives: typed messages and table changes, converted
 * from Lambda's records by the adapters in lib/lambda.ts. Types only, so that lib/domain and
 * lib/webhooks name no Lambda event type and a test can build their input without one.
 */

/** One queue message, its body validated against the consumer's schema. */
export interface QueueMessage<T> {
  /** The queue's message id: the id a failure of this message reports. */
  id: string;
  body: T;
  /** The body as it arrived, to set it aside unchanged (a dead-letter queue). */
  raw: string;
  /** Receives of this message so far, this one included (1 on the first). */
  receiveCount: number;
  /** What changing this message's visibility (the delay before its next receive) needs. */
  receiptHandle: string;
}

/** One change of the table as its stream reports it, the images as plain objects. */
export interface StreamChange {
  /** The stream's id of the change: the same when a batch is retried, so ids derived from it are too. */
  id: string;
  name: 'INSERT' | 'MODIFY' | 'REMOVE';
  /** Its position in the shard: the id a failure of this change reports. */
  sequence: string;
  keys: Record<string, unknown>;
  newImage?: Record<string, unknown>;
  oldImage?: Record<string, unknown>;
}

/** What a consumer may ask of the invocation running it. */
export interface Invocation {
  /** Milliseconds until the function times out. */
  timeLeftMs(): number;
}
