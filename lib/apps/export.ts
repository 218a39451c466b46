// The export: a zip, streamed (yazl), holding a project that runs on its own:
//   <slug>/public/…      the app's files (the live version, else the preview)
//   <slug>/data.sql      its data as SQL (SQLite): the dump of the live data's
//                        space database, or of the preview's for an app never
//                        put live (lib/apps/data.ts)
//   <slug>/server.js     a server with no dependencies (node:http, node:sqlite)
//   <slug>/package.json  `npm start` runs it
//   <slug>/README.md
import { Readable } from 'node:stream';
import yazl from 'yazl';
import type { SignedInCaller } from '../core/caller.ts';
import { ApiError } from '../core/errors.ts';
import { manifestEntries } from '../spaces/manifest.ts';
import { versionRefs } from '../spaces/publishing.ts';
import { blobStore } from '../storage/index.ts';
import { appWith } from './apps.ts';
import { dataDump, specOf } from './data.ts';
import { EXPORT_SERVER as SERVER } from './export-server.ts';

/** The app's zip, streamed as it is read, and its file name. */
export async function exportApp({ actor }: SignedInCaller, id: string): Promise<{ filename: string; zip: ReadableStream<Uint8Array> }> {
  const { row } = await appWith(actor.user.id, id, 'manage');
  const version = row.liveVersion ?? row.previewVersion;
  if (!version) throw new ApiError('conflict', 'This app has no build to export yet.');
  const refs = await versionRefs(row.spaceId, version);
  const spec = await specOf(row.spaceId, version);
  if (!refs || !spec) throw new ApiError('conflict', 'This version of the app cannot be exported.');
  const dump = await dataDump(row.id, row.spaceId);
  const entries = await manifestEntries(refs);
  const dir = row.slug;
  const zip = new yazl.ZipFile();
  const mtime = new Date();
  for (const entry of entries) {
    // Opened one at a time, when the zip reaches the file.
    zip.addReadStreamLazy(`${dir}/public/${entry.path}`, { mtime, size: entry.size }, (done) => {
      blobStore()
        .get(entry.sha256)
        .then((stream) => (stream ? done(null, Readable.fromWeb(stream as import('node:stream/web').ReadableStream)) : done(new Error(`The stored bytes of ${entry.path} are missing.`), null as never)))
        .catch((error: Error) => done(error, null as never));
    });
  }
  zip.addBuffer(Buffer.from(dump), `${dir}/data.sql`, { mtime });
  zip.addBuffer(Buffer.from(SERVER), `${dir}/server.js`, { mtime });
  const pkg = { name: dir, version: `1.0.${version}`, private: true, type: 'module', scripts: { start: 'node server.js' }, engines: { node: '>=22.5' } };
  zip.addBuffer(Buffer.from(`${JSON.stringify(pkg, null, 2)}\n`), `${dir}/package.json`, { mtime });
  zip.addBuffer(
    Buffer.from(`# ${spec.name}\n\nExported from Atrium (version ${version}). Needs Node.js 22.5 or later, nothing else.\n\n    npm start          # http://localhost:3000/\n    PORT=8080 npm start\n\nThe data is created from data.sql into data.sqlite on the first start; delete data.sqlite to start again.\n`),
    `${dir}/README.md`,
    { mtime },
  );
  zip.end();
  return { filename: `${dir}.zip`, zip: Readable.toWeb(zip.outputStream as Readable) as ReadableStream<Uint8Array> };
}
