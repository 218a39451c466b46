// Compressed answers for stored files: which types are worth compressing,
// which coding a client takes (Accept-Encoding), and the compression itself,
// on zlib's threads so that the event loop stays free.
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Coding } from '../../lib/core/files.ts';


/** Smaller files are sent as stored: compressing them saves less than it costs. */
export const COMPRESS_MIN_BYTES = 1024;
/** Larger files are sent as stored: compressing one holds it whole in memory. */
export const COMPRESS_MAX_BYTES = 8 * 1024 * 1024;
/**
 * Files up to this size get brotli's best quality (11): it is paid once per
 * file, and a 100 KB stylesheet takes a few hundred milliseconds. Larger ones
 * get quality 5, as fast as gzip and smaller (docs/benchmarks.md).
 */
const BROTLI_BEST_BYTES = 256 * 1024;

/** Text in all its forms; images, video, archives and woff/woff2 fonts are compressed already. */
const COMPRESSIBLE_TYPES = new Set([
  'application/javascript',
  'application/x-javascript',
  'application/ecmascript',
  'application/json',
  'application/xml',
  'application/wasm',
  'application/vnd.ms-fontobject',
  'image/svg+xml',
  'image/x-icon',
  'image/vnd.microsoft.icon',
  'font/ttf',
  'font/otf',
  'font/collection',
]);

export function compressible(contentType: string): boolean {
  const type = contentType.split(';')[0].trim().toLowerCase();
  return type.startsWith('text/') || COMPRESSIBLE_TYPES.has(type) || /^application\/[\w.-]+\+(json|xml)$/.test(type);
}

/**
 * The coding to answer with, from Accept-Encoding's weights (`*` standing
 * for codings it does not name): brotli before gzip at equal weight, null
 * for the bytes as stored. A client that refuses identity and takes neither
 * coding still gets the stored bytes rather than a 406, as browsers expect.
 */
export function chosenCoding(acceptEncoding: string | null): Coding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const item of acceptEncoding.split(',')) {
    const [name, ...parameters] = item.split(';');
    const q = parameters.find((parameter) => /^\s*q\s*=/i.test(parameter))?.split('=')[1].trim();
    // A weight outside the grammar (0 to 1, three decimals) refuses the coding, as nginx reads it.
    const weight = q === undefined ? 1 : /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(q) ? Number(q) : 0;
    weights.set(name.trim().toLowerCase(), weight);
  }
  const weightOf = (...names: string[]) => names.map((name) => weights.get(name)).find((weight) => weight !== undefined) ?? weights.get('*') ?? 0;
  const br = weightOf('br');
  const gzipped = weightOf('gzip', 'x-gzip');
  if (br > 0 && br >= gzipped) return 'br';
  return gzipped > 0 ? 'gzip' : null;
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Compressions running at once, at most: zlib works on libuv's four threads,
 * which file reads need too, so a burst of new files to compress (a push of
 * many pages) queues here rather than holding up every visitor's reads.
 */
const COMPRESSING_AT_ONCE = 2;
let compressing = 0;
const queued: Array<() => void> = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  // A finished compression hands its turn to the next in the queue.
  if (compressing < COMPRESSING_AT_ONCE) compressing++;
  else await new Promise<void>((resolve) => queued.push(resolve));
  try {
    return await work();
  } finally {
    const next = queued.shift();
    if (next) next();
    else compressing--;
  }
}

export async function compress(bytes: Uint8Array, coding: Coding): Promise<Uint8Array<ArrayBuffer>> {
  const compressed = await inTurn(() =>
    coding === 'gzip'
      ? gzipAsync(bytes, { level: 9 })
      : brotliAsync(bytes, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: bytes.byteLength <= BROTLI_BEST_BYTES ? 11 : 5,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
          },
        }),
  );
  return new Uint8Array(compressed.buffer, compressed.byteOffset, compressed.byteLength) as Uint8Array<ArrayBuffer>;
}
