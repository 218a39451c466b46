// Source text extraction runs in child processes held to their caps: time,
// heap, and resident memory (a watchdog kills a child past it, which is what
// stops a PDF whose decoded streams the heap cap does not count), and at most
// EXTRACT_CONCURRENCY of them run at once however many uploads arrive.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXTRACT_CONCURRENCY, extractText } from '@/lib/rooms/sources.ts';
import { blobStore } from '@/lib/storage/index.ts';

const PDF = `%PDF-1.4
1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >> endobj
4 0 obj << /Length 44 >> stream
BT /F1 12 Tf 20 100 Td (Hello PDF) Tj ET
endstream endobj
5 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj
trailer << /Root 1 0 R >>
%%EOF
`;

async function stored(content: string): Promise<string> {
  const bytes = new TextEncoder().encode(content);
  const blob = await blobStore().put(
    new ReadableStream({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    }),
    { maxBytes: bytes.length },
  );
  return blob.sha256;
}

/** The extractor processes this test process runs now. */
function extractorsRunning(): number {
  let count = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === process.pid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('extract-worker')) count++;
    } catch {
      // gone meanwhile
    }
  }
  return count;
}

describe('source text extraction', () => {
  it('reads a PDF, and kills an extractor that goes past its resident memory cap', async () => {
    const sha = await stored(PDF);
    expect(await extractText(sha, 'pdf')).toBe('Hello PDF');
    // The same file under a cap below what Node itself needs: the watchdog kills it at once.
    const started = Date.now();
    expect(await extractText(sha, 'pdf', 15_000, 30 * 1024 * 1024)).toBeNull();
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it(`runs at most ${EXTRACT_CONCURRENCY} extractors at once; the rest wait their turn and still finish`, async () => {
    const sha = await stored(PDF);
    let most = 0;
    const sampler = setInterval(() => (most = Math.max(most, extractorsRunning())), 10);
    try {
      const results = await Promise.all(Array.from({ length: 6 }, () => extractText(sha, 'pdf')));
      expect(results).toEqual(Array(6).fill('Hello PDF'));
    } finally {
      clearInterval(sampler);
    }
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(EXTRACT_CONCURRENCY);
  }, 60_000);
});
