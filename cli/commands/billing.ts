// Billing: a workspace's plan, usage and limits; change the plan, keep it,
// open the customer portal (owners and admins; Stripe's pages open in a browser).
import type { Command } from 'commander';
import { billingApi } from '../../lib/schemas/billing.ts';
import { globalOptions, signedInClient } from '../context.ts';
import { CliError, EXIT, formatTime, printJson, printTable, say } from '../output.ts';

const PLANS = ['free', 'pro', 'team'] as const;
const bytes = (n: number) => (n >= 1024 ** 3 ? `${(n / 1024 ** 3).toFixed(1)} GB` : n >= 1024 ** 2 ? `${(n / 1024 ** 2).toFixed(1)} MB` : `${n} bytes`);

async function show(this: Command, slug: string) {
  const state = await (await signedInClient(this)).call(billingApi.state, { params: { slug } });
  if (globalOptions(this).json) return printJson(state);
  say(`${slug}: ${state.plan} plan, ${state.status}${state.renewsAt ? `, renews ${formatTime(state.renewsAt)}` : ''}${state.billingConfigured ? '' : ' (no billing on this server)'}`);
  if (state.scheduled) say(`Waiting: ${state.scheduled.plan} from ${formatTime(state.scheduled.at)} (undo with: atrium billing keep ${slug})`);
  const rows = (Object.keys(state.usage) as (keyof typeof state.usage)[]).map((key) => {
    const storage = key === 'storageBytes';
    const limit = state.limits[key];
    return { what: key, used: storage ? bytes(state.usage[key]) : String(state.usage[key]), limit: limit === null ? 'unlimited' : storage ? bytes(limit) : String(limit) };
  });
  printTable(rows, ['what', 'used', 'limit']);
}

async function change(this: Command, slug: string, plan: string) {
  const chosen = PLANS.find((p) => p === plan);
  if (!chosen) throw new CliError(`The plan must be one of ${PLANS.join(', ')}, not "${plan}".`, undefined, EXIT.usage);
  const { url } = await (await signedInClient(this)).call(billingApi.checkout, { params: { slug }, body: { plan: chosen } });
  if (globalOptions(this).json) return printJson({ url });
  say(`Open to continue: ${url}`);
}

async function keep(this: Command, slug: string) {
  const { url } = await (await signedInClient(this)).call(billingApi.keep, { params: { slug } });
  if (globalOptions(this).json) return printJson({ url });
  say(`${slug} keeps its plan. ${url}`);
}

async function portal(this: Command, slug: string) {
  const { url } = await (await signedInClient(this)).call(billingApi.portal, { params: { slug } });
  if (globalOptions(this).json) return printJson({ url });
  say(`Invoices and payment method: ${url}`);
}

export function register(program: Command) {
  const billing = program
    .command('billing <slug>')
    .description("Show a workspace's plan, usage and limits, or change the plan with a subcommand")
    .addHelpText('after', '\nExamples:\n  $ atrium billing acme\n  $ atrium billing plan acme pro')
    .action(show);
  billing
    .command('plan <slug> <plan>')
    .description('Change the plan (free, pro, team): upgrades start now, downgrades at the period end')
    .addHelpText('after', '\nExample:\n  $ atrium billing plan acme team')
    .action(change);
  billing
    .command('keep <slug>')
    .description("Keep the current plan: cancel a change waiting for the period's end")
    .addHelpText('after', '\nExample:\n  $ atrium billing keep acme')
    .action(keep);
  billing
    .command('portal <slug>')
    .description("Print the URL of the billing provider's customer portal")
    .addHelpText('after', '\nExample:\n  $ atrium billing portal acme')
    .action(portal);
}
