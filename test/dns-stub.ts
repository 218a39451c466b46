// A DNS server on loopback for tests, speaking just enough DNS (RFC 1035, over
// UDP) to answer TXT queries: a name in `txt` answers its values, a name
// mapped to [] exists without TXT records, any other name does not exist.
// Point lib/spaces/domains.ts at it with `dnsLookup.servers = [stub.server]`.
import { createSocket } from 'node:dgram';

const TYPE_TXT = 16;
const CLASS_IN = 1;

export type DnsStub = {
  /** host:port to hand to a resolver. */
  server: string;
  txt: Map<string, string[]>;
  /** Questions answered so far, as "name type". */
  questions: string[];
  close(): Promise<void>;
};

/** The question's name (lowercase), type and where the question section ends. */
function question(query: Buffer): { name: string; type: number; end: number } | null {
  const labels: string[] = [];
  let at = 12;
  while (at < query.length && query[at] !== 0) {
    const length = query[at];
    if (length > 63) return null; // compression is never used in a question
    labels.push(query.subarray(at + 1, at + 1 + length).toString('latin1'));
    at += 1 + length;
  }
  if (at + 5 > query.length) return null;
  return { name: labels.join('.').toLowerCase(), type: query.readUInt16BE(at + 1), end: at + 5 };
}

function txtRecord(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  const strings: Buffer[] = [];
  for (let at = 0; at < bytes.length || strings.length === 0; at += 255) {
    const chunk = bytes.subarray(at, at + 255);
    strings.push(Buffer.from([chunk.length]), chunk);
  }
  const data = Buffer.concat(strings);
  const fixed = Buffer.alloc(12);
  fixed.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
  fixed.writeUInt16BE(TYPE_TXT, 2);
  fixed.writeUInt16BE(CLASS_IN, 4);
  fixed.writeUInt32BE(60, 6);
  fixed.writeUInt16BE(data.length, 10);
  return Buffer.concat([fixed, data]);
}

export async function startDnsStub(): Promise<DnsStub> {
  const socket = createSocket('udp4');
  const txt = new Map<string, string[]>();
  const questions: string[] = [];
  socket.on('message', (query, peer) => {
    const asked = query.length >= 12 ? question(query) : null;
    if (!asked) return;
    questions.push(`${asked.name} ${asked.type}`);
    const values = txt.get(asked.name);
    const answers = values && asked.type === TYPE_TXT ? values.map(txtRecord) : [];
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2); // the query's id
    // A response, recursion desired and available; NXDOMAIN for a name we do not know.
    header.writeUInt16BE(0x8180 | (values ? 0 : 3), 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    socket.send(Buffer.concat([header, query.subarray(12, asked.end), ...answers]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    server: `127.0.0.1:${socket.address().port}`,
    txt,
    questions,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
