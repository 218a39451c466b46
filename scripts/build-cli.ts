// Builds the atrium CLI into plain JavaScript (cli/dist), one bundle with its
// dependencies inside, so that the package installs with nothing else and runs
// from node_modules, where Node does not strip types. cli/package.json's
// prepack runs it, so `npm pack` in cli/ makes a working package; `--pack`
// writes that tarball (to .atrium/, or the folder after --pack) and prints its path.
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const cliDir = path.join(root, 'cli');

export async function buildCli(): Promise<string> {
  const { version } = JSON.parse(await readFile(path.join(cliDir, 'package.json'), 'utf8')) as { version: string };
  const outdir = path.join(cliDir, 'dist');
  await rm(outdir, { recursive: true, force: true });
  await build({
    entryPoints: { atrium: path.join(cliDir, 'bin.ts'), 'hash-worker': path.join(cliDir, 'push/hash-worker.ts') },
    // bin.ts loads the rest as its own chunk, after turning on the compile cache.
    splitting: true,
    chunkNames: '[name]-[hash]',
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    // commander and ignore are CommonJS: their require() of Node built-ins needs a real require.
    banner: { js: "import { createRequire as __atriumRequire } from 'node:module'; const require = __atriumRequire(import.meta.url);" },
    define: { ATRIUM_CLI_VERSION: JSON.stringify(version) },
    legalComments: 'eof',
    logLevel: 'warning',
  });
  return outdir;
}

/** `npm pack`s cli/ into `destination` (its prepack script builds dist/ first); the tarball's path. */
export async function packCli(destination: string): Promise<string> {
  await mkdir(destination, { recursive: true });
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], { cwd: cliDir, encoding: 'utf8' });
  const [{ filename }] = JSON.parse(out) as { filename: string }[];
  return path.join(destination, filename);
}

if (import.meta.main) {
  const packAt = process.argv.indexOf('--pack');
  // On stderr: `npm pack --json` runs this as prepack, and its stdout must stay JSON.
  if (packAt === -1) console.error(`Built ${path.relative(root, await buildCli())}/atrium.js`);
  else console.log(await packCli(path.resolve(process.argv[packAt + 1] ?? path.join(root, '.atrium'))));
}
