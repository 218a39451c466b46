// Billing settings: a bad value stops start-up naming the variable.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '@/lib/config.ts';

const stripe = { BILLING_PROVIDER_SECRET_KEY: 'sk_test_abc', BILLING_PRICE_PRO: 'price_pro', BILLING_PRICE_TEAM: 'price_team' };

describe('billing configuration', () => {
  it('is off by default: no provider, no plan table', () => {
    const config = loadConfig({});
    expect(config.billing).toEqual({ secretKey: null, webhookSecret: null, prices: { pro: null, team: null, enterprise: null }, apiUrl: null });
    expect(config.planTable).toBeNull();
  });

  it('names a bad key, secret or price, and the prices a secret key needs, without showing secrets', () => {
    expect(() => loadConfig({ BILLING_PROVIDER_SECRET_KEY: 'pk_live_oops' })).toThrow(/BILLING_PROVIDER_SECRET_KEY=\(hidden\): must be a Stripe secret/);
    expect(() => loadConfig({ ...stripe, BILLING_PROVIDER_WEBHOOK_SECRET: 'nope' })).toThrow(/BILLING_PROVIDER_WEBHOOK_SECRET=\(hidden\)/);
    expect(() => loadConfig({ ...stripe, BILLING_PRICE_TEAM: 'prod_123' })).toThrow(/BILLING_PRICE_TEAM="prod_123": must be a Stripe price id/);
    expect(() => loadConfig({ BILLING_PROVIDER_SECRET_KEY: 'sk_test_abc' })).toThrow(/BILLING_PRICE_PRO: needed[\s\S]*BILLING_PRICE_TEAM: needed/);
    expect(() => loadConfig({ BILLING_PROVIDER_WEBHOOK_SECRET: 'whsec_abc' })).toThrow(/BILLING_PROVIDER_WEBHOOK_SECRET: needs BILLING_PROVIDER_SECRET_KEY/);
    expect(loadConfig({ ...stripe, BILLING_PROVIDER_WEBHOOK_SECRET: 'whsec_abc' }).billing).toMatchObject({ secretKey: 'sk_test_abc', webhookSecret: 'whsec_abc', prices: { pro: 'price_pro' } });
  });

  it('reads BILLING_PLANS as default, JSON or a file, and names what is wrong with it', async () => {
    expect(loadConfig({ BILLING_PLANS: 'default' }).planTable).toEqual({});
    expect(loadConfig({ BILLING_PLANS: '{"free": {"seats": 5, "rooms": null}}' }).planTable).toEqual({ free: { seats: 5, rooms: null } });
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'plans-')), 'plans.json');
    await writeFile(file, '{"pro": {"storageBytes": 1000}}');
    expect(loadConfig({ BILLING_PLANS: file }).planTable).toEqual({ pro: { storageBytes: 1000 } });
    expect(() => loadConfig({ BILLING_PLANS: '{"free": {"seats": -1}}' })).toThrow(/BILLING_PLANS: free\.seats/);
    expect(() => loadConfig({ BILLING_PLANS: '{"gold": {}}' })).toThrow(/BILLING_PLANS: /);
    expect(() => loadConfig({ BILLING_PLANS: '{"free": {"sets": 3}}' })).toThrow(/BILLING_PLANS: /);
    expect(() => loadConfig({ BILLING_PLANS: '{nope' })).toThrow(/BILLING_PLANS: is not valid JSON/);
    expect(() => loadConfig({ BILLING_PLANS: '/no/such/plans.json' })).toThrow(/BILLING_PLANS: must be "default", JSON, or the path/);
  });
});
