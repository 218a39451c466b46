// A folder is linked to a space by .atrium/space.json, so that `atrium push`
// in it needs no arguments. --space overrides the link.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { CliError } from './output.ts';

export type SpaceLink = { server: string; spaceId: string };

const linkFile = (dir: string) => path.join(dir, '.atrium', 'space.json');

export async function readLink(dir: string): Promise<SpaceLink | null> {
  try {
    return JSON.parse(await readFile(linkFile(dir), 'utf8')) as SpaceLink;
  } catch {
    return null;
  }
}

export async function writeLink(dir: string, link: SpaceLink): Promise<void> {
  await mkdir(path.dirname(linkFile(dir)), { recursive: true });
  await writeFile(linkFile(dir), `${JSON.stringify(link, null, 2)}\n`);
}

/** Adds the --space option to a command that acts on a space. */
export function withSpaceOption(command: Command): Command {
  return command.option('--space <id>', 'the space (default: the one the folder is linked to)');
}

/** The space a command acts on: --space, else the link of `dir` (default: the current folder). */
export async function spaceIdFor(command: Command, dir = '.'): Promise<string> {
  const flag = (command.optsWithGlobals() as { space?: string }).space;
  if (flag) return flag;
  const link = await readLink(dir);
  if (link) return link.spaceId;
  throw new CliError('No space given, and this folder is not linked to one.', 'Pass --space <id>, or run `atrium init` to link the folder.');
}
