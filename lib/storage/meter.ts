// Hashes and counts bytes as they stream through, and stops the stream once it
// passes its size limit.
import { createHash } from 'node:crypto';
import { ApiError } from '../core/errors.ts';
import { formatBytes } from '../format.ts';

// Defined with the schemas, which must not import this (node:crypto) module.
export { SHA256_PATTERN } from '../schemas/common.ts';

export function meter(maxBytes: number) {
  const hash = createHash('sha256');
  let size = 0;
  let failure: ApiError | null = null;
  /** Counts and hashes one chunk; throws too_large once past the limit. */
  const add = (chunk: Uint8Array) => {
    size += chunk.byteLength;
    if (size > maxBytes) {
      failure = new ApiError('too_large', `The file is larger than the limit of ${formatBytes(maxBytes)}.`);
      throw failure;
    }
    hash.update(chunk);
  };
  return {
    add,
    /** The same as a stream stage, for stores that hand the bytes on as a stream (made when asked: most stores add chunks themselves). */
    transform: () =>
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          add(chunk);
          controller.enqueue(chunk);
        },
      }),
    /** Call once the stream has ended. */
    result: () => ({ sha256: hash.digest('hex'), size }),
    /** The limit's error once passed; a store that sees the stream fail through another layer rethrows it. */
    failure: () => failure,
  };
}

export function hashMismatch(expected: string, actual: string): ApiError {
  return new ApiError('bad_request', `The bytes do not match their hash: expected sha256 ${expected}, received ${actual}. Nothing was stored.`);
}
