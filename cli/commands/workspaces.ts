// Workspaces: list, create, their members, and invitations by handle.
import type { Command } from 'commander';
import { workspacesApi } from '../../lib/schemas/workspaces.ts';
import { globalOptions, signedInClient } from '../context.ts';
import { CliError, EXIT, formatTime, printJson, printTable, say } from '../output.ts';

const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;

async function list(this: Command) {
  const workspaces = await (await signedInClient(this)).call(workspacesApi.list);
  if (globalOptions(this).json) return printJson(workspaces);
  printTable(
    workspaces.map((w) => ({ slug: w.slug, name: w.name, role: w.role })),
    ['slug', 'name', 'role'],
  );
}

async function create(this: Command, slug: string, options: { name?: string }) {
  const created = await (await signedInClient(this)).call(workspacesApi.create, { body: { slug, name: options.name ?? slug } });
  if (globalOptions(this).json) return printJson(created);
  say(`Created workspace ${created.name} (${created.slug}); you are its owner.`);
}

async function members(this: Command, slug: string) {
  const detail = await (await signedInClient(this)).call(workspacesApi.get, { params: { slug } });
  if (globalOptions(this).json) return printJson(detail.members);
  printTable(
    detail.members.map((m) => ({
      handle: `@${m.user.handle}`,
      name: m.user.name ?? '',
      role: m.role,
      status: m.status === 'pending' ? 'invited' : 'member',
      since: formatTime(m.joinedAt ?? m.invitedAt),
    })),
    ['handle', 'name', 'role', 'status', 'since'],
  );
  if (detail.seats) say(`Seats: ${detail.seats.used} of ${detail.seats.limit ?? 'unlimited'} used (${detail.seats.plan} plan).`);
}

async function invite(this: Command, slug: string, handle: string, options: { role: string }) {
  const role = ROLES.find((r) => r === options.role);
  if (!role) throw new CliError(`--role must be one of ${ROLES.join(', ')}, not "${options.role}".`, undefined, EXIT.usage);
  await (await signedInClient(this)).call(workspacesApi.invite, { params: { slug }, body: { handle: handle.replace(/^@/, ''), role } });
  if (globalOptions(this).json) return printJson({ workspace: slug, invited: handle.replace(/^@/, ''), role });
  say(`Invited @${handle.replace(/^@/, '')} to ${slug} as ${options.role}; they accept on their dashboard.`);
}

export function register(program: Command) {
  const workspaces = program
    .command('workspaces')
    .description('List your workspaces, or manage one with a subcommand')
    .addHelpText('after', '\nExamples:\n  $ atrium workspaces\n  $ atrium workspaces create acme --name "Acme Inc"')
    .action(list);
  workspaces
    .command('create <slug>')
    .description('Create a workspace; you become its owner')
    .option('--name <name>', 'its name (default: the slug)')
    .addHelpText('after', '\nExample:\n  $ atrium workspaces create acme --name "Acme Inc"')
    .action(create);
  workspaces
    .command('members <slug>')
    .description("List a workspace's members and pending invitations")
    .addHelpText('after', '\nExample:\n  $ atrium workspaces members acme')
    .action(members);
  workspaces
    .command('invite <slug> <handle>')
    .description('Invite someone by handle')
    .option('--role <role>', 'owner, admin, member or viewer', 'member')
    .addHelpText('after', '\nExample:\n  $ atrium workspaces invite acme @grace --role admin')
    .action(invite);
}
