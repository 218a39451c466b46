// Custom domains of a space: a name of yours that serves its site once its
// DNS proves it is yours (a TXT record) and it points at Atrium.
import type { Command } from 'commander';
import { spacesApi, type SpaceDomain } from '../../lib/schemas/spaces.ts';
import { globalOptions, signedInClient } from '../context.ts';
import { formatTime, printJson, printTable, say } from '../output.ts';
import { spaceIdFor, withSpaceOption } from '../space-link.ts';

function explain(domain: SpaceDomain) {
  if (domain.status === 'active') return say(`${domain.hostname} serves the space: ${domain.url}`);
  const { record } = domain.verification;
  say(`${domain.hostname} is pending. Prove it is yours with this DNS record:`);
  say(`  ${record.name}  ${record.type}  "${record.value}"`);
  say(`Point ${domain.hostname} at this Atrium (a CNAME or A record), then run:`);
  say(`  atrium domains verify ${domain.hostname}`);
  if (domain.expiresAt) say(`The claim expires unverified on ${formatTime(domain.expiresAt)}.`);
}

async function list(this: Command) {
  const { domains } = await (await signedInClient(this)).call(spacesApi.domains, { params: { id: await spaceIdFor(this) } });
  if (globalOptions(this).json) return printJson(domains);
  if (domains.length === 0) return say('No custom domains. Add one with `atrium domains add <hostname>`.');
  printTable(
    domains.map((d) => ({ hostname: d.hostname, status: d.status, verified: formatTime(d.verifiedAt), added: formatTime(d.createdAt) })),
    ['hostname', 'status', 'verified', 'added'],
  );
}

async function add(this: Command, hostname: string) {
  const domain = await (await signedInClient(this)).call(spacesApi.addDomain, { params: { id: await spaceIdFor(this) }, body: { hostname } });
  if (globalOptions(this).json) return printJson(domain);
  explain(domain);
}

async function verify(this: Command, hostname: string) {
  const domain = await (await signedInClient(this)).call(spacesApi.verifyDomain, { params: { id: await spaceIdFor(this), hostname } });
  if (globalOptions(this).json) return printJson(domain);
  explain(domain);
}

async function remove(this: Command, hostname: string) {
  await (await signedInClient(this)).call(spacesApi.deleteDomain, { params: { id: await spaceIdFor(this), hostname } });
  if (globalOptions(this).json) return printJson({ deleted: hostname });
  say(`Removed ${hostname}; it no longer serves the space.`);
}

export function register(program: Command) {
  const domains = withSpaceOption(program.command('domains'))
    .description("List a space's custom domains, or manage them with a subcommand (space admins)")
    .addHelpText('after', '\nExamples:\n  $ atrium domains\n  $ atrium domains add docs.example.com\n  $ atrium domains verify docs.example.com')
    .action(list);
  withSpaceOption(domains.command('list'))
    .description("List the space's custom domains")
    .addHelpText('after', '\nExample:\n  $ atrium domains list --json')
    .action(list);
  withSpaceOption(domains.command('add <hostname>'))
    .description('Add a custom domain; it serves the space once verified')
    .addHelpText('after', '\nExample:\n  $ atrium domains add docs.example.com')
    .action(add);
  withSpaceOption(domains.command('verify <hostname>'))
    .description('Check that the name reaches this Atrium, and start serving the space there')
    .addHelpText('after', '\nExample:\n  $ atrium domains verify docs.example.com')
    .action(verify);
  withSpaceOption(domains.command('rm <hostname>'))
    .description('Remove a custom domain; it stops serving at once')
    .addHelpText('after', '\nExample:\n  $ atrium domains rm docs.example.com')
    .action(remove);
}
