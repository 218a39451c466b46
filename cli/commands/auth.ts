// Signing in and out, and the tokens of the account.
import os from 'node:os';
import type { Command } from 'commander';
import type { CurrentUser, User } from '../../lib/schemas/accounts.ts';
import { openInBrowser } from '../browser.ts';
import { ApiRequestError } from '../client.ts';
import { clearToken, readConfig, resolveSession, writeConfig } from '../config.ts';
import { anonymousClient, globalOptions, signedInClient } from '../context.ts';
import { CliError, formatTime, note, printJson, printTable, say } from '../output.ts';

type StartResult = { deviceCode: string; userCode: string; verificationUrl: string; expiresIn: number; interval: number };
type PollResult = { status: 'pending' } | { status: 'approved'; token: string; user: User };
type TokenItem = { id: string; label: string; createdAt: number; lastUsedAt: number | null; expiresAt: number | null; current: boolean };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function login(this: Command, options: { label?: string; browser: boolean }) {
  const { json } = globalOptions(this);
  const client = await anonymousClient(this);
  const label = options.label ?? `atrium CLI on ${os.hostname()}`.slice(0, 60);
  const start = await client.post<StartResult>('/v1/auth/cli/start', { label });
  const verificationUrl = new URL(start.verificationUrl, `${client.server}/`).toString();

  note(`First copy your one-time code: ${start.userCode}`);
  note(`Then approve this sign-in at ${verificationUrl}`);
  if (options.browser && openInBrowser(verificationUrl)) note('(opened in your browser)');
  note('Waiting for approval… (Ctrl-C to cancel)');

  let interval = start.interval * 1000;
  const deadline = Date.now() + start.expiresIn * 1000;
  while (Date.now() < deadline + interval) {
    await sleep(interval);
    const { status, body } = await client.request<PollResult>('POST', '/v1/auth/cli/poll', {
      body: { deviceCode: start.deviceCode },
      accept: [202, 403, 410, 429],
      retries: 3,
    });
    if (status === 202) continue;
    // RFC 8628's slow_down: wait 5 seconds longer between polls from now on.
    if (status === 429) {
      interval += 5000;
      continue;
    }
    if (status === 403) throw new CliError('The sign-in was denied in the browser.', 'Run `atrium login` to try again.');
    if (status === 410) throw new CliError('The code expired before it was approved.', 'Run `atrium login` to get a new one.');
    if (body.status === 'approved') {
      const stored = await readConfig();
      await writeConfig({ ...stored, server: client.server, token: body.token, handle: body.user.handle });
      if (json) printJson({ server: client.server, user: body.user });
      else say(`Signed in to ${client.server} as @${body.user.handle}.`);
      return;
    }
  }
  throw new CliError('The code expired before it was approved.', 'Run `atrium login` to get a new one.');
}

async function logout(this: Command) {
  const { server, token } = await resolveSession(globalOptions(this).server);
  if (!token) {
    say(`You were not signed in to ${server}.`);
    return;
  }
  try {
    await (await signedInClient(this)).delete('/v1/tokens/current');
  } catch (error) {
    // A token the server no longer accepts is as good as revoked.
    if (!(error instanceof ApiRequestError && error.status === 401)) throw error;
  }
  if (!process.env.ATRIUM_TOKEN) await clearToken();
  say(`Signed out of ${server}; the token is revoked.`);
}

async function whoami(this: Command) {
  const client = await signedInClient(this);
  const me = await client.get<CurrentUser>('/v1/me');
  if (globalOptions(this).json) return printJson({ server: client.server, ...me });
  say(`@${me.user.handle}${me.user.name ? ` (${me.user.name})` : ''} on ${client.server}`);
  for (const w of me.workspaces) say(`  ${w.slug}  ${w.role}`);
  if (me.invites.length) say(`Pending invitations: ${me.invites.map((w) => `${w.slug} (${w.role})`).join(', ')}`);
}

async function listTokens(this: Command) {
  const client = await signedInClient(this);
  const { tokens } = await client.get<{ tokens: TokenItem[] }>('/v1/tokens');
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
  await (await signedInClient(this)).delete(`/v1/tokens/${encodeURIComponent(id)}`);
  say(`Revoked ${id}.`);
}

export function register(program: Command) {
  program
    .command('login')
    .description('Sign in: approve a one-time code in your browser, and keep the token for later commands')
    .option('--label <label>', 'name of this token in your token list (default: "atrium CLI on <host>")')
    .option('--no-browser', 'do not try to open the browser')
    .addHelpText('after', '\nExample:\n  $ atrium login --server https://atrium.example.com')
    .action(login);

  program
    .command('logout')
    .description('Revoke the token in use and forget it')
    .addHelpText('after', '\nExample:\n  $ atrium logout')
    .action(logout);

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
