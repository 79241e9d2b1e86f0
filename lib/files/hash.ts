/** SHA-256 of a file's bytes, streamed: a 20 MB file never needs to be held whole to be hashed. */
import { createHash } from 'node:crypto';

/** Hex SHA-256 of every chunk `source` yields, in order (a Node stream, an S3 body, an array of buffers). */
export async function sha256Of(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of source) hash.update(chunk);
  return hash.digest('hex');
}
