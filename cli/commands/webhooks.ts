// A workspace's outgoing webhooks (owners and admins): list, add, change,
// pause, remove, send a test event, read the delivery log and redeliver.
import type { Command } from 'commander';
import { WEBHOOK_EVENTS, webhooksApi, type WebhookEventName } from '../../lib/schemas/webhooks.ts';
import { globalOptions, signedInClient } from '../context.ts';
import { CliError, EXIT, formatTime, printJson, printTable, say } from '../output.ts';

/** `--events a,b` (or `all`) as event names, refusing unknown ones by name. */
function events(value: string | undefined): WebhookEventName[] | undefined {
  if (value === undefined) return undefined;
  if (value === 'all') return [...WEBHOOK_EVENTS];
  const names = value.split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !(WEBHOOK_EVENTS as readonly string[]).includes(name));
  if (unknown.length || names.length === 0) throw new CliError(`--events: unknown event ${unknown.join(', ') || '(none given)'}.`, `Events: ${WEBHOOK_EVENTS.join(', ')}, or all.`, EXIT.usage);
  return names as WebhookEventName[];
}

async function list(this: Command, slug: string) {
  const { webhooks } = await (await signedInClient(this)).call(webhooksApi.list, { params: { slug } });
  if (globalOptions(this).json) return printJson(webhooks);
  if (webhooks.length === 0) return say(`No webhooks in ${slug}. Add one with \`atrium webhooks add ${slug} <url> --events all\`.`);
  printTable(
    webhooks.map((h) => ({ id: h.id, url: h.url, events: h.events.length === WEBHOOK_EVENTS.length ? 'all' : h.events.join(', '), state: h.active ? 'active' : 'paused' })),
    ['id', 'url', 'events', 'state'],
  );
}

async function add(this: Command, slug: string, url: string, options: { events: string; description?: string }) {
  const created = await (await signedInClient(this)).call(webhooksApi.create, { params: { slug }, body: { url, events: events(options.events)!, description: options.description } });
  if (globalOptions(this).json) return printJson(created);
  say(`Added webhook ${created.webhook.id} for ${created.webhook.events.join(', ')}.`);
  say(`Signing secret (shown once; keep it to verify deliveries with any Standard Webhooks library): ${created.secret}`);
}

async function update(this: Command, id: string, options: { url?: string; events?: string; description?: string }) {
  const changed = await (await signedInClient(this)).call(webhooksApi.update, { params: { id }, body: { url: options.url, events: events(options.events), description: options.description } });
  if (globalOptions(this).json) return printJson(changed);
  say(`Updated webhook ${changed.id}.`);
}

async function setActive(command: Command, id: string, active: boolean) {
  const changed = await (await signedInClient(command)).call(webhooksApi.update, { params: { id }, body: { active } });
  if (globalOptions(command).json) return printJson(changed);
  say(active ? `Resumed webhook ${id}: new events are delivered again.` : `Paused webhook ${id}: no new deliveries until you resume it.`);
}

async function pause(this: Command, id: string) {
  await setActive(this, id, false);
}

async function resume(this: Command, id: string) {
  await setActive(this, id, true);
}

async function remove(this: Command, id: string) {
  await (await signedInClient(this)).call(webhooksApi.remove, { params: { id } });
  if (globalOptions(this).json) return printJson({ deleted: id });
  say(`Deleted webhook ${id} and its delivery log.`);
}

async function ping(this: Command, id: string) {
  const delivery = await (await signedInClient(this)).call(webhooksApi.ping, { params: { id } });
  if (globalOptions(this).json) return printJson(delivery);
  say(`Queued a ping (delivery ${delivery.id}); see it with \`atrium webhooks deliveries ${id}\`.`);
}

async function deliveries(this: Command, id: string, options: { limit?: string }) {
  if (options.limit !== undefined && !/^([1-9]\d?|1\d\d|200)$/.test(options.limit)) throw new CliError('--limit must be a whole number from 1 to 200.', undefined, EXIT.usage);
  const { deliveries: rows } = await (await signedInClient(this)).call(webhooksApi.deliveries, { params: { id }, query: { limit: options.limit } });
  if (globalOptions(this).json) return printJson(rows);
  if (rows.length === 0) return say('No deliveries yet.');
  printTable(
    rows.map((d) => ({
      id: d.id,
      event: d.event,
      status: d.status === 'pending' && d.nextAttemptAt ? `retry ${formatTime(d.nextAttemptAt)}` : d.status,
      tries: String(d.attempts),
      answer: d.responseStatus !== null ? `${d.responseStatus} in ${d.durationMs} ms` : (d.error ?? ''),
      when: formatTime(d.createdAt),
    })),
    ['id', 'event', 'status', 'tries', 'answer', 'when'],
  );
}

async function redeliver(this: Command, id: string, deliveryId: string) {
  const delivery = await (await signedInClient(this)).call(webhooksApi.redeliver, { params: { id, deliveryId } });
  if (globalOptions(this).json) return printJson(delivery);
  say(`Queued ${delivery.event} again as delivery ${delivery.id}.`);
}

export function register(program: Command) {
  const webhooks = program
    .command('webhooks')
    .description("Manage a workspace's outgoing webhooks (owners and admins)")
    .addHelpText('after', `\nEvents: ${WEBHOOK_EVENTS.join(', ')}.\n\nExamples:\n  $ atrium webhooks list acme\n  $ atrium webhooks add acme https://ci.example.com/atrium --events version.committed`);
  webhooks.command('list <workspace>').description("List the workspace's webhook endpoints").addHelpText('after', '\nExample:\n  $ atrium webhooks list acme').action(list);
  webhooks
    .command('add <workspace> <url>')
    .description('Register an HTTPS endpoint for some events; prints its signing secret once')
    .requiredOption('--events <names>', 'comma-separated event names, or all')
    .option('--description <text>', 'what the endpoint is for')
    .addHelpText('after', '\nExample:\n  $ atrium webhooks add acme https://ci.example.com/atrium --events version.committed,comment.created')
    .action(add);
  webhooks
    .command('update <id>')
    .description("Change an endpoint's URL, events or description")
    .option('--url <url>', 'the new address')
    .option('--events <names>', 'comma-separated event names, or all')
    .option('--description <text>', 'what the endpoint is for')
    .addHelpText('after', '\nExample:\n  $ atrium webhooks update wh_k3j9x0q2m5v8b1n4c7z6a --events all')
    .action(update);
  const example = (command: string) => `\nExample:\n  $ atrium webhooks ${command} wh_k3j9x0q2m5v8b1n4c7z6a`;
  webhooks.command('pause <id>').description('Stop new deliveries to an endpoint').addHelpText('after', example('pause')).action(pause);
  webhooks.command('resume <id>').description('Deliver new events to a paused endpoint again').addHelpText('after', example('resume')).action(resume);
  webhooks.command('rm <id>').description('Delete an endpoint and its delivery log').addHelpText('after', example('rm')).action(remove);
  webhooks.command('ping <id>').description('Queue a test event (`ping`) to an endpoint').addHelpText('after', example('ping')).action(ping);
  webhooks
    .command('deliveries <id>')
    .description("An endpoint's deliveries, newest first: status, tries and the last answer")
    .option('--limit <n>', 'how many (1 to 200, default 50)')
    .addHelpText('after', '\nExample:\n  $ atrium webhooks deliveries wh_k3j9x0q2m5v8b1n4c7z6a --limit 10')
    .action(deliveries);
  webhooks
    .command('redeliver <id> <delivery>')
    .description('Send a delivery again (a new delivery of the same event)')
    .addHelpText('after', '\nExample:\n  $ atrium webhooks redeliver wh_k3j9x0q2m5v8b1n4c7z6a whd_0c5a1e2f3b4d5e6f7a8b9')
    .action(redeliver);
}
