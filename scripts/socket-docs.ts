// Rewrites the generated part of docs/realtime.md (the socket message tables
// and close codes) from lib/schemas/socket.ts. test/rooms/socket-contract.test.ts
// fails when the file and the schemas disagree.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { withSocketTables } from '../server/http/asyncapi.ts';

const file = path.resolve(import.meta.dirname, '../docs/realtime.md');
await writeFile(file, withSocketTables(await readFile(file, 'utf8')));
console.log('docs/realtime.md: socket messages written');
