// atrium push: publish a folder as a new version of a space. Only blobs the
// server lacks are uploaded; an interrupted push resumes when run again.
import path from 'node:path';
import type { Command } from 'commander';
import { AtriumApiError, type Answer, type AtriumClient } from '../../lib/client/index.ts';
import { spacesApi, type Diff, type FileEntryInput } from '../../lib/schemas/spaces.ts';
import { fileBody, globalOptions, signedInClient } from '../context.ts';
import { CliError, note, printJson, say } from '../output.ts';
import { eachLimit } from '../../lib/pool.ts';
import { formatBytes } from '../../lib/format.ts';
import { Progress } from '../progress.ts';
import { hashFiles } from '../push/hash.ts';
import { walk } from '../push/walk.ts';
import { readLink, spaceIdFor, withSpaceOption } from '../space-link.ts';

const UPLOAD_CONCURRENCY = 8;

// Planning changes nothing, and committing the same files twice creates one
// version (the second finds nothing changed): both are safe to retry.
const plan = (client: AtriumClient, id: string, files: FileEntryInput[]) => client.call(spacesApi.plan, { params: { id }, body: { files }, idempotent: true });
const commit = (client: AtriumClient, id: string, files: FileEntryInput[], message?: string, alias?: string) =>
  client.call(spacesApi.commit, { params: { id }, body: { files, message, alias }, idempotent: true });

export function describeDiff(diff: Diff): string {
  return `${diff.added.length} added, ${diff.changed.length} changed, ${diff.removed.length} removed, ${diff.unchanged} unchanged`;
}

function printDiff(diff: Diff) {
  for (const p of diff.added) say(`+ ${p}`);
  for (const p of diff.changed) say(`~ ${p}`);
  for (const p of diff.removed) say(`- ${p}`);
  say(describeDiff(diff));
}

/** What the site's _redirects and _headers gave, and each line left out with why (on stderr: a warning, not data). */
function describeRules(rules: NonNullable<Answer<typeof spacesApi.commit>['rules']>) {
  say(`Rules: ${rules.redirects} from _redirects, ${rules.headers} from _headers.`);
  for (const line of rules.ignored) note(`warning: ${line.file}${line.line ? ` line ${line.line}` : ''} ignored: ${line.reason}`);
  const unlisted = rules.ignoredCount - rules.ignored.length;
  if (unlisted > 0) note(`warning: ${unlisted} more lines ignored`);
}

async function upload(client: AtriumClient, spaceId: string, missing: string[], local: Map<string, { absolute: string; size: number }>, json: boolean) {
  const blobs = [...new Set(missing)].map((sha) => ({ sha, ...local.get(sha)! }));
  const progress = new Progress('Uploading', blobs.length, blobs.reduce((n, b) => n + b.size, 0), !json);
  await eachLimit(blobs, UPLOAD_CONCURRENCY, async (blob) => {
    await client.call(spacesApi.putBlob, { params: { id: spaceId, sha256: blob.sha }, raw: fileBody(blob.absolute, blob.size) });
    progress.add(1, blob.size);
  });
  progress.done();
}

async function push(this: Command, dir: string | undefined, options: { message?: string; dryRun?: boolean; alias?: string }) {
  const { json } = globalOptions(this);
  const root = path.resolve(dir ?? '.');
  const spaceId = await spaceIdFor(this, root);
  const client = await signedInClient(this);
  const link = await readLink(root);
  if (link && link.server !== client.baseUrl && !(this.optsWithGlobals() as { space?: string }).space) {
    throw new CliError(`This folder is linked to a space on ${link.server}, not ${client.baseUrl}.`, `Pass --server ${link.server} to push there, or --space <id> to push elsewhere.`);
  }

  // Fail on an unknown space or a missing right before reading the whole folder.
  const space = await client.call(spacesApi.get, { params: { id: spaceId } });
  if (!space.permissions.push) throw new CliError(`You cannot push to ${space.name} (${spaceId}).`, 'Ask an admin of its workspace for the member role.');

  const { files, outsideLinks } = await walk(root);
  for (const link of outsideLinks) note(`Skipping ${link}: it links to something outside the folder.`);
  if (files.length === 0) throw new CliError(`There is nothing to push in ${root}.`);
  const totalBytes = files.reduce((n, f) => n + f.size, 0);

  const hashing = new Progress('Hashing', files.length, totalBytes, !json);
  const { hashes } = await hashFiles(root, files, (file) => hashing.add(1, file.size));
  hashing.done();

  const entries: FileEntryInput[] = files.map((f) => ({ path: f.path, sha256: hashes.get(f.path)!, size: f.size }));
  const local = new Map(files.map((f) => [hashes.get(f.path)!, { absolute: f.absolute, size: f.size }]));

  const planned = await plan(client, spaceId, entries);
  if (options.dryRun) {
    if (json) return printJson({ dryRun: true, ...planned });
    printDiff(planned.diff);
    say(`Would upload ${planned.missing.length} file(s); nothing was changed.`);
    return;
  }
  // Nothing added, changed or removed: a commit would create no version, so none is sent (unless it moves an alias).
  const { added, changed, removed } = planned.diff;
  if (!options.alias && !planned.missing.length && !added.length && !changed.length && !removed.length && planned.baseVersion > 0) {
    if (json) return printJson({ version: null, diff: planned.diff, url: space.url, uploaded: 0 });
    say(`Nothing changed: ${files.length} files, ${formatBytes(totalBytes)} are already the latest version.`);
    say(space.url);
    return;
  }
  await upload(client, spaceId, planned.missing, local, Boolean(json));

  let uploaded = new Set(planned.missing).size;
  let result: Answer<typeof spacesApi.commit>;
  try {
    result = await commit(client, spaceId, entries, options.message, options.alias);
  } catch (error) {
    if (!(error instanceof AtriumApiError && error.status === 409)) throw error;
    // A blob went missing between plan and commit: plan again, upload, commit.
    const again = await plan(client, spaceId, entries);
    await upload(client, spaceId, again.missing, local, Boolean(json));
    uploaded += new Set(again.missing).size;
    result = await commit(client, spaceId, entries, options.message, options.alias);
  }
  if (json) return printJson({ ...result, uploaded });
  if (!result.version) {
    say(`Nothing changed: ${files.length} files, ${formatBytes(totalBytes)} are already the latest version.`);
  } else {
    say(`Published version ${result.version.number} (${describeDiff(result.diff)}; uploaded ${uploaded} of ${files.length} files).`);
    if (result.rules) describeRules(result.rules);
  }
  // With an alias, its address is the one to share (a pull request's preview).
  if (result.alias) say(`Alias ${result.alias.name} now serves version ${result.alias.version}:`);
  say(result.alias?.url ?? result.url);
}

export function register(program: Command) {
  withSpaceOption(program.command('push [dir]'))
    .description('Publish a folder (default: the current one) as a new version of its space')
    .option('-m, --message <text>', 'a message describing the version')
    .option('--dry-run', 'show what would change, and change nothing')
    .option('--alias <name>', 'also point this alias (a preview address, e.g. pr-42) at the version, and print its address')
    .addHelpText(
      'after',
      '\nDotfiles are skipped (except .well-known), and so is whatever .atriumignore (gitignore syntax) lists. _redirects and _headers are the site\'s rules; lines that cannot be used are named.\n\nExamples:\n  $ atrium push ./dist -m "New landing page"\n  $ atrium push --dry-run\n  $ atrium push ./dist --alias pr-42',
    )
    .action(push);
}
