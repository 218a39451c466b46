// The CLI's version: cli/package.json's, read at run time from a checkout and
// written in by the build (ATRIUM_CLI_VERSION) into the packaged bundle.
import { readFileSync } from 'node:fs';

declare const ATRIUM_CLI_VERSION: string | undefined;

export const VERSION: string =
  typeof ATRIUM_CLI_VERSION === 'string'
    ? ATRIUM_CLI_VERSION
    : (JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }).version;
