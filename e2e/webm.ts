// A playable, seekable video made in the test itself, with no ffmpeg and no
// binary in the repository: Chromium's own VP8 encoder (WebCodecs) encodes
// frames of noise drawn on a canvas (noise does not compress, so a few
// seconds weigh megabytes), and webm() below puts them in a WebM file with
// its duration and cues (MediaRecorder's files have neither, and cannot be
// seeked without reading them whole).
import type { Page } from '@playwright/test';

export type EncodedFrame = { data: Buffer; timestampMs: number; key: boolean };
export type EncodedVideo = { width: number; height: number; durationMs: number; frames: EncodedFrame[] };

/**
 * `seconds` of VP8 noise, 320x180 at 25 frames a second and 2.4 Mbit/s
 * (about 300 KB a second), a key frame each second. WebCodecs needs a secure context: the
 * page must be on https or localhost.
 */
export async function encodeNoise(page: Page, seconds: number): Promise<EncodedVideo> {
  const width = 320;
  const height = 180;
  const fps = 25;
  const frames = await page.evaluate(
    async ({ width, height, fps, count }) => {
      const out: { data: string; timestampMs: number; key: boolean }[] = [];
      let failure: unknown = null;
      const encoder = new VideoEncoder({
        output: (chunk) => {
          const bytes = new Uint8Array(chunk.byteLength);
          chunk.copyTo(bytes);
          let binary = '';
          for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
          out.push({ data: btoa(binary), timestampMs: chunk.timestamp / 1000, key: chunk.type === 'key' });
        },
        error: (error) => {
          failure = error;
        },
      });
      encoder.configure({ codec: 'vp8', width, height, framerate: fps, bitrate: 2_400_000 });
      const canvas = new OffscreenCanvas(width, height);
      const context = canvas.getContext('2d')!;
      const noise = context.createImageData(width, height);
      for (let i = 0; i < count; i++) {
        // getRandomValues fills 64 KB at most per call.
        for (let at = 0; at < noise.data.length; at += 65536) crypto.getRandomValues(noise.data.subarray(at, at + 65536));
        for (let a = 3; a < noise.data.length; a += 4) noise.data[a] = 255;
        context.putImageData(noise, 0, 0);
        const frame = new VideoFrame(canvas, { timestamp: (i * 1_000_000) / fps, duration: 1_000_000 / fps });
        encoder.encode(frame, { keyFrame: i % fps === 0 });
        frame.close();
      }
      await encoder.flush();
      if (failure) throw failure;
      return out;
    },
    { width, height, fps, count: seconds * fps },
  );
  return { width, height, durationMs: seconds * 1000, frames: frames.map((f) => ({ ...f, data: Buffer.from(f.data, 'base64') })) };
}

// EBML, Matroska's encoding: each element is its ID, its size as a
// variable-length integer, then its content.
const sizeOf = (size: number) => {
  let length = 1;
  while (size >= 2 ** (7 * length) - 1) length++;
  const bytes = Buffer.alloc(length);
  bytes.writeUIntBE(size, 0, length);
  bytes[0] |= 0x80 >> (length - 1);
  return bytes;
};
const element = (id: number, ...content: Buffer[]) => {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from(id.toString(16).padStart(2, '0'), 'hex'), sizeOf(body.length), body]);
};
/** An unsigned integer in `bytes` bytes (leading zeros allowed, so a size can be known before the value). */
const uint = (id: number, value: number, bytes = Math.max(1, Math.ceil(Math.log2(value + 1) / 8))) => {
  const body = Buffer.alloc(bytes);
  body.writeUIntBE(value, 0, bytes);
  return element(id, body);
};
const float = (id: number, value: number) => {
  const body = Buffer.alloc(8);
  body.writeDoubleBE(value);
  return element(id, body);
};
const text = (id: number, value: string) => element(id, Buffer.from(value, 'ascii'));

/** A WebM file of VP8 frames: one cluster per key frame, with cues pointing at each, before them. */
export function webm({ width, height, durationMs, frames }: EncodedVideo): Buffer {
  const header = element(0x1a45dfa3, uint(0x4286, 1), uint(0x42f7, 1), uint(0x42f2, 4), uint(0x42f3, 8), text(0x4282, 'webm'), uint(0x4287, 2), uint(0x4285, 2));
  const info = element(0x1549a966, uint(0x2ad7b1, 1_000_000), text(0x4d80, 'atrium-e2e'), text(0x5741, 'atrium-e2e'), float(0x4489, durationMs));
  const tracks = element(0x1654ae6b, element(0xae, uint(0xd7, 1), uint(0x73c5, 1), uint(0x83, 1), text(0x86, 'V_VP8'), element(0xe0, uint(0xb0, width), uint(0xba, height))));
  const groups: EncodedFrame[][] = [];
  for (const frame of frames) {
    if (frame.key || groups.length === 0) groups.push([]);
    groups.at(-1)!.push(frame);
  }
  const clusters = groups.map((group) => {
    const start = Math.round(group[0].timestampMs);
    const blocks = group.map((frame) => {
      const head = Buffer.alloc(4);
      head[0] = 0x81; // track 1
      head.writeInt16BE(Math.round(frame.timestampMs) - start, 1);
      head[3] = frame.key ? 0x80 : 0;
      return element(0xa3, head, frame.data);
    });
    return { start, bytes: element(0x1f43b675, uint(0xe7, start), ...blocks) };
  });
  // Cluster positions count from the segment's content; each cue's is written in 4 bytes, so the cues' size is known first.
  const cues = (positions: number[]) => element(0x1c53bb6b, ...clusters.map((cluster, i) => element(0xbb, uint(0xb3, cluster.start, 4), element(0xb7, uint(0xf7, 1), uint(0xf1, positions[i], 4)))));
  const before = info.length + tracks.length + cues(clusters.map(() => 0)).length;
  const positions = clusters.map((_, i) => before + clusters.slice(0, i).reduce((sum, c) => sum + c.bytes.length, 0));
  return Buffer.concat([header, element(0x18538067, info, tracks, cues(positions), ...clusters.map((c) => c.bytes))]);
}
