// The `atrium` commands the web app shows to copy. The package is built from
// a checkout of this server (README, "The command-line tool"): no registry
// package name is ever shown.
export const INSTALL_CLI: [string, string] = ['Install the command-line tool (from a checkout of Atrium, Node 22 or later)', 'npm run pack:cli && npm install -g .atrium/atrium-cli-0.1.0.tgz'];

/**
 * The dashboard's first publish: install, sign in to `server`, link ./site to a new space, push it.
 * Each works as printed from the folder that holds ./site, in this order (test/cli/first-publish.test.ts).
 */
export function firstPublishCommands(server: string): [string, string][] {
  return [
    INSTALL_CLI,
    ['Sign in from your terminal', `atrium login --server ${server}`],
    ['Create a space for a folder (here ./site) and link the folder to it', 'atrium init ./site'],
    ['Publish the folder', 'atrium push ./site -m "First version"'],
  ];
}

/** Installing, signing in to `server` and publishing a folder to one space. */
export function spaceCommands(server: string, spaceId: string): [string, string][] {
  return [INSTALL_CLI, ['Sign in from your terminal', `atrium login --server ${server}`], ['Publish a folder (here ./dist) to this space', `atrium push ./dist --space ${spaceId}`]];
}
