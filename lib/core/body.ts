// A request body as domain code receives it (uploads, deploys, provider
// webhooks): the bytes as a stream, never the request itself.
/** A raw request body for domain code: the bytes as a stream, with what the client declared of them. */
export type IncomingBody = {
  /** Null when the request has no body. Nothing is read until someone reads it. */
  stream: ReadableStream<Uint8Array> | null;
  /** The declared Content-Length; null when absent or malformed. */
  length: number | null;
  type: string | null;
};
