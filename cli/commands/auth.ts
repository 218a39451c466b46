// Signing in and out (one sign-in per server, like gh), and the tokens of the account.
import os from 'node:os';
import type { Command } from 'commander';
import { AtriumApiError, AtriumNetworkError } from '../../lib/client/index.ts';
import { accountsApi } from '../../lib/schemas/accounts.ts';
import { authApi } from '../../lib/schemas/auth.ts';
import { openInBrowser } from '../browser.ts';
import { forgetSignIn, normalizeServer, readConfig, resolveSession, saveSignIn, writeConfig } from '../config.ts';
import { anonymousClient, clientFor, globalOptions, signedInClient } from '../context.ts';
import { CliError, formatTime, note, printJson, printTable, say } from '../output.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function login(this: Command, options: { label?: string; browser: boolean }) {
  const { json } = globalOptions(this);
  const client = await anonymousClient(this);
  const server = client.baseUrl;
  const label = options.label ?? `atrium CLI on ${os.hostname()}`.slice(0, 60);
  const start = await client.call(authApi.cliStart, { body: { label } });
  const verificationUrl = new URL(start.verificationUrl, `${server}/`).toString();

  note(`First copy your one-time code: ${start.userCode}`);
  note(`Then approve this sign-in at ${verificationUrl}`);
  if (options.browser && openInBrowser(verificationUrl)) note('(opened in your browser)');
  note('Waiting for approval… (Ctrl-C to cancel)');

  let interval = start.interval * 1000;
  const deadline = Date.now() + start.expiresIn * 1000;
  while (Date.now() < deadline + interval) {
    await sleep(interval);
    let answer;
    try {
      // Polling is safe to repeat while pending; 429 is the server's slow_down, handled below.
      answer = await client.call(authApi.cliPoll, { body: { deviceCode: start.deviceCode }, retries: 3, idempotent: true, retryRateLimited: false });
    } catch (error) {
      if (!(error instanceof AtriumApiError)) throw error;
      // RFC 8628's slow_down: wait 5 seconds longer between polls from now on.
      if (error.status === 429) {
        interval += 5000;
        continue;
      }
      if (error.status === 403) throw new CliError('The sign-in was denied in the browser.', 'Run `atrium login` to try again.');
      if (error.status === 410) throw new CliError('The code expired before it was approved.', 'Run `atrium login` to get a new one.');
      throw error;
    }
    if (answer.status === 'approved') {
      await saveSignIn(server, { token: answer.token, handle: answer.user.handle });
      if (json) printJson({ server, user: answer.user });
      else say(`Signed in to ${server} as @${answer.user.handle}.`);
      return;
    }
  }
  throw new CliError('The code expired before it was approved.', 'Run `atrium login` to get a new one.');
}

async function logout(this: Command) {
  const { json } = globalOptions(this);
  const { server, token, tokenSource } = await resolveSession(globalOptions(this).server);
  if (!token) {
    if (json) return printJson({ server, signedOut: false });
    return say(`You were not signed in to ${server}.`);
  }
  try {
    await clientFor(server, token).call(authApi.revokeCurrentToken);
  } catch (error) {
    // A token the server no longer accepts is as good as revoked.
    if (!(error instanceof AtriumApiError && error.status === 401)) throw error;
  }
  if (tokenSource === 'config') await forgetSignIn(server);
  if (json) return printJson({ server, signedOut: true });
  say(`Signed out of ${server}; the token is revoked.`);
}

type HostStatus = { server: string; current: boolean; source: string; handle: string | null; ok: boolean; error?: string };

async function status(this: Command) {
  const { json, server: flag } = globalOptions(this);
  const config = await readConfig();
  const session = await resolveSession(flag);
  const entries: { server: string; token: string; source: string }[] = Object.entries(config.hosts).map(([server, host]) => ({ server, token: host.token, source: 'config' }));
  if (session.tokenSource === 'env') entries.unshift({ server: session.server, token: session.token!, source: 'ATRIUM_TOKEN' });
  const wanted = flag ? entries.filter((e) => e.server === session.server) : entries;
  if (wanted.length === 0) {
    if (json) printJson([]);
    throw new CliError(`You are not signed in to ${flag ? session.server : 'any server'}.`, `Run \`atrium login${flag ? ` --server ${session.server}` : ''}\` to sign in.`);
  }
  const results: HostStatus[] = await Promise.all(
    wanted.map(async ({ server, token, source }) => {
      const current = server === session.server;
      try {
        const me = await clientFor(server, token).call(accountsApi.me, { retries: 1 });
        return { server, current, source, handle: me.user.handle, ok: true };
      } catch (error) {
        const reason = error instanceof AtriumApiError || error instanceof AtriumNetworkError ? error.message : String(error);
        return { server, current, source, handle: config.hosts[server]?.handle ?? null, ok: false, error: reason };
      }
    }),
  );
  if (json) printJson(results);
  else {
    for (const r of results) {
      say(`${r.server}${r.current ? ' (in use)' : ''}`);
      if (r.ok) say(`  ✓ Signed in as @${r.handle} (token from ${r.source})`);
      else say(`  ✗ ${r.error}\n    Run \`atrium login --server ${r.server}\` to sign in again.`);
    }
  }
  if (results.some((r) => !r.ok)) throw new CliError('Some sign-ins do not work.', undefined, 1, true);
}

async function switchServer(this: Command, server: string) {
  const config = await readConfig();
  const target = normalizeServer(server);
  if (!config.hosts[target]) {
    const known = Object.keys(config.hosts);
    throw new CliError(`You are not signed in to ${target}.`, known.length ? `Signed in: ${known.join(', ')}. Or run \`atrium login --server ${target}\`.` : `Run \`atrium login --server ${target}\`.`);
  }
  await writeConfig({ ...config, current: target });
  if (globalOptions(this).json) return printJson({ current: target, handle: config.hosts[target].handle ?? null });
  say(`Commands now use ${target}${config.hosts[target].handle ? ` (@${config.hosts[target].handle})` : ''}.`);
}

async function whoami(this: Command) {
  const client = await signedInClient(this);
  const me = await client.call(accountsApi.me);
  if (globalOptions(this).json) return printJson({ server: client.baseUrl, ...me });
  say(`@${me.user.handle}${me.user.name ? ` (${me.user.name})` : ''} on ${client.baseUrl}`);
  for (const w of me.workspaces) say(`  ${w.slug}  ${w.role}`);
  if (me.invites.length) say(`Pending invitations: ${me.invites.map((w) => `${w.slug} (${w.role})`).join(', ')}`);
}

async function listTokens(this: Command) {
  const client = await signedInClient(this);
  const { tokens } = await client.call(authApi.tokens);
  if (globalOptions(this).json) return printJson(tokens);
  printTable(
    tokens.map((t) => ({
      id: t.id,
      label: t.current ? `${t.label} (this one)` : t.label,
      created: formatTime(t.createdAt),
      'last used': formatTime(t.lastUsedAt),
      expires: formatTime(t.expiresAt),
    })),
    ['id', 'label', 'created', 'last used', 'expires'],
  );
}

async function revokeToken(this: Command, id: string) {
  await (await signedInClient(this)).call(authApi.revokeToken, { params: { id } });
  if (globalOptions(this).json) return printJson({ revoked: id });
  say(`Revoked ${id}.`);
}

export function register(program: Command) {
  program
    .command('login')
    .description('Sign in to a server (--server): approve a one-time code in your browser, and keep the token for later commands')
    .option('--label <label>', 'name of this token in your token list (default: "atrium CLI on <host>")')
    .option('--no-browser', 'do not try to open the browser')
    .addHelpText(
      'after',
      '\nYou can be signed in to several servers at once; the last one signed in to is used by default\n(see `atrium auth status` and `atrium auth switch`). In CI, set ATRIUM_URL and ATRIUM_TOKEN instead.\n\nExample:\n  $ atrium login --server https://atrium.example.com',
    )
    .action(login);

  program
    .command('logout')
    .description('Revoke the token in use for the server and forget it')
    .addHelpText('after', '\nExample:\n  $ atrium logout --server https://atrium.example.com')
    .action(logout);

  const auth = program
    .command('auth')
    .description('See and choose the servers you are signed in to')
    .addHelpText('after', '\nExamples:\n  $ atrium auth status\n  $ atrium auth switch https://atrium.example.com');
  auth
    .command('status')
    .description('Check every saved sign-in (or the one for --server) against its server; exits 1 if one fails')
    .addHelpText('after', '\nExample:\n  $ atrium auth status --json')
    .action(status);
  auth
    .command('switch <server>')
    .description('Use another server you are signed in to by default')
    .addHelpText('after', '\nExample:\n  $ atrium auth switch https://atrium.example.com')
    .action(switchServer);

  program
    .command('whoami')
    .description('Show who you are signed in as, and your workspaces')
    .addHelpText('after', '\nExample:\n  $ atrium whoami --json')
    .action(whoami);

  const tokens = program
    .command('tokens')
    .description('List the tokens and sessions of your account')
    .addHelpText('after', '\nExamples:\n  $ atrium tokens\n  $ atrium tokens revoke tok_k3j9x0q2m5v8b1n4c7z6a')
    .action(listTokens);
  tokens
    .command('revoke <id>')
    .description('Revoke one of your tokens')
    .addHelpText('after', '\nExample:\n  $ atrium tokens revoke tok_k3j9x0q2m5v8b1n4c7z6a')
    .action(revokeToken);
}
