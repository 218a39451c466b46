// `atrium webhooks …` run as a user runs it, against a real server.
import { afterAll, describe, expect, it } from 'vitest';
import { config } from '@/lib/config.ts';
import { signIn } from '../helpers.ts';
import { useFrontServer } from '../server.ts';
import { cliAgainst, cliTimeout } from './run-cli.ts';

const server = useFrontServer();
const atrium = cliAgainst(server);

afterAll(() => {
  config.webhooksAllowPrivate = false;
});

describe('atrium webhooks', () => {
  it('adds, lists, changes, pauses, pings, shows deliveries, redelivers and removes', { timeout: cliTimeout(11) }, async () => {
    // The receiver would be on this machine: allowed for the test, as an operator may.
    config.webhooksAllowPrivate = true;
    const owner = await signIn('cli-hooks');
    const slug = owner.user.handle;
    const added = await atrium(owner.token, 'webhooks', 'add', slug, 'http://127.0.0.1:9/hook', '--events', 'version.committed,comment.created');
    const id = /Added webhook (wh_\w+)/.exec(added)![1];
    expect(added).toMatch(/Signing secret \(shown once[^)]*\): whsec_/);
    expect(await atrium(owner.token, 'webhooks', 'list', slug)).toMatch(new RegExp(`${id}\\s+http://127.0.0.1:9/hook\\s+version.committed, comment.created\\s+active`));
    await atrium(owner.token, 'webhooks', 'update', id, '--events', 'all');
    await atrium(owner.token, 'webhooks', 'pause', id);
    const listed = JSON.parse(await atrium(owner.token, 'webhooks', 'list', slug, '--json'));
    expect(listed).toMatchObject([{ id, active: false, events: expect.arrayContaining(['member.left', 'app.went_live']) }]);
    expect(await atrium(owner.token, 'webhooks', 'ping', id)).toMatch(/Queued a ping \(delivery whd_\w+\)/);
    const [delivery] = JSON.parse(await atrium(owner.token, 'webhooks', 'deliveries', id, '--json'));
    expect(delivery).toMatchObject({ event: 'ping', status: 'pending', attempts: 0 });
    expect(await atrium(owner.token, 'webhooks', 'redeliver', id, delivery.id)).toMatch(/Queued ping again as delivery whd_/);
    const refused = await atrium(owner.token, 'webhooks', 'add', slug, 'http://127.0.0.1:9/x', '--events', 'version.pushed').catch((error: { code: number; stderr: string }) => error);
    expect(refused).toMatchObject({ code: 2 });
    expect((refused as { stderr: string }).stderr).toMatch(/unknown event version\.pushed/);
    await atrium(owner.token, 'webhooks', 'rm', id);
    expect(await atrium(owner.token, 'webhooks', 'list', slug)).toMatch(/No webhooks in/);
  });
});
