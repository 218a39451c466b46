import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '@/lib/config.ts';
import { registrableDomain } from '@/lib/registrable-domain.ts';

describe('configuration', () => {
  it('has working defaults for a fresh machine', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, devAuth: false, databaseUrl: undefined, publicUrl: 'http://localhost:3000' });
    expect(config.dataDir.endsWith('.atrium')).toBe(true);
  });

  it('stops with a message naming each bad variable', () => {
    let message = '';
    try {
      loadConfig({ PORT: 'eighty', DEV_AUTH: 'yes', DATABASE_URL: 'mysql://x' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('PORT="eighty": must be a whole number from 1 to 65535');
    expect(message).toContain('DEV_AUTH="yes": must be true or false');
    expect(message).toContain('DATABASE_URL="mysql://x": must be a postgres:// or postgresql:// URL');
  });

  it('reads the database pool size: 10 by default, a whole number from 1 to 1000', () => {
    expect(loadConfig({}).databasePoolSize).toBe(10);
    expect(loadConfig({ DATABASE_POOL_SIZE: '25' }).databasePoolSize).toBe(25);
    for (const bad of ['0', '1001', 'ten', '2.5', '-3']) {
      expect(() => loadConfig({ DATABASE_POOL_SIZE: bad }), bad).toThrow(`DATABASE_POOL_SIZE=${JSON.stringify(bad)}: must be a whole number from 1 to 1000`);
    }
  });

  it('reads flags and trims a trailing slash from PUBLIC_URL', () => {
    const config = loadConfig({ DEV_AUTH: 'true', PUBLIC_URL: 'https://atrium.example.com/' });
    expect(config.devAuth).toBe(true);
    expect(config.publicUrl).toBe('https://atrium.example.com');
  });

  it('gives sites hosts of their own: under localhost on a loopback install, under CONTENT_BASE_URL, or none (sandboxed on the app)', () => {
    expect(loadConfig({}).contentDomain).toEqual({ protocol: 'http:', hostname: 'localhost', port: '3000' });
    expect(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:8080' }).contentDomain).toEqual({ protocol: 'http:', hostname: 'localhost', port: '8080' });
    expect(loadConfig({ PUBLIC_URL: 'https://atrium.example.com' }).contentDomain).toBeNull();
    expect(loadConfig({ PUBLIC_URL: 'https://atrium.example.com', CONTENT_BASE_URL: 'https://atrium-sites.example/' }).contentDomain).toEqual({ protocol: 'https:', hostname: 'atrium-sites.example', port: '' });
    expect(() => loadConfig({ CONTENT_BASE_URL: 'https://sites.example/under/a/path' })).toThrow('CONTENT_BASE_URL="https://sites.example/under/a/path": must be a bare origin');
    expect(() => loadConfig({ CONTENT_BASE_URL: 'http://10.0.0.5:3000' })).toThrow('CONTENT_BASE_URL="http://10.0.0.5:3000": must be a domain name, not an address');
  });

  it("refuses a content domain on the app's registrable domain, unless the operator says it is on the Public Suffix List", () => {
    const shared = [
      ['https://atrium.example.com', 'https://sites.example.com'],
      ['https://atrium.example.com', 'https://example.com'],
      ['https://example.com', 'https://sites.example.com'],
      ['https://atrium.example.com', 'https://sites.atrium.example.com'],
      ['https://atrium.example.com:8443', 'https://SITES.Example.COM.'],
      ['https://atrium.example.co.uk', 'https://sites.example.co.uk'],
      ['http://app.internal.corp', 'http://sites.internal.corp:8080'],
    ];
    for (const [PUBLIC_URL, CONTENT_BASE_URL] of shared) {
      expect(() => loadConfig({ PUBLIC_URL, CONTENT_BASE_URL }), CONTENT_BASE_URL).toThrow(/CONTENT_BASE_URL and PUBLIC_URL: sites \(sp-id\.[\w.]+\) would share the app's registrable domain \(\w+\.(co\.uk|com|corp)\)/);
      expect(() => loadConfig({ PUBLIC_URL, CONTENT_BASE_URL }), CONTENT_BASE_URL).toThrow('set CONTENT_DOMAIN_PUBLIC_SUFFIX=true if the content domain is on the Public Suffix List');
      expect(loadConfig({ PUBLIC_URL, CONTENT_BASE_URL, CONTENT_DOMAIN_PUBLIC_SUFFIX: 'true' }).contentDomain).not.toBeNull();
    }
    const apart = [
      ['https://atrium.example.com', 'https://atrium-sites.example'],
      ['https://atrium.example.co.uk', 'https://sites.other.co.uk'],
      ['https://atrium.example.com', 'https://sites.example.net'],
      ['http://localhost:3000', 'http://localhost:3000'],
      ['http://127.0.0.1:3000', 'http://localhost:3000'],
      ['http://10.0.0.5:3000', 'http://sites.lan'],
    ];
    for (const [PUBLIC_URL, CONTENT_BASE_URL] of apart) expect(loadConfig({ PUBLIC_URL, CONTENT_BASE_URL }).contentDomain, CONTENT_BASE_URL).not.toBeNull();
    expect(() => loadConfig({ CONTENT_DOMAIN_PUBLIC_SUFFIX: 'true' })).toThrow('CONTENT_DOMAIN_PUBLIC_SUFFIX: needs CONTENT_BASE_URL');
  });

  it("takes a host's registrable domain as its last two labels, three under a known country second level", () => {
    const cases: [string, string][] = [
      ['atrium.example.com', 'example.com'],
      ['a.b.c.example.com', 'example.com'],
      ['example.com', 'example.com'],
      ['Sites.Example.COM.', 'example.com'],
      ['sp-x.sites.example.co.uk', 'example.co.uk'],
      ['example.co.uk', 'example.co.uk'],
      ['co.uk', 'co.uk'],
      ['app.example.com.au', 'example.com.au'],
      ['a.example.co.jp', 'example.co.jp'],
      // Not known to be a public suffix: read as a name of its own, so both hosts share it.
      ['a.example.xx.zz', 'xx.zz'],
      ['sp-x.localhost', 'sp-x.localhost'],
      ['localhost', 'localhost'],
      ['192.168.1.5', '192.168.1.5'],
      ['[::1]', '[::1]'],
    ];
    for (const [host, domain] of cases) expect(registrableDomain(host), host).toBe(domain);
  });

  it('reads an S3-compatible store and refuses half a configuration', () => {
    expect(loadConfig({}).s3).toBeNull();
    expect(loadConfig({ S3_BUCKET: 'atrium-blobs', S3_ENDPOINT: 'http://minio:9000/', S3_ACCESS_KEY_ID: 'key', S3_SECRET_ACCESS_KEY: 'secret', S3_FORCE_PATH_STYLE: 'true' }).s3).toEqual({
      bucket: 'atrium-blobs',
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      forcePathStyle: true,
    });
    expect(() => loadConfig({ S3_BUCKET: 'atrium-blobs', S3_ACCESS_KEY_ID: 'key' })).toThrow('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both or neither');
    expect(() => loadConfig({ S3_ENDPOINT: 'http://minio:9000' })).toThrow('S3_BUCKET: needed with the other S3_ settings');
    expect(() => loadConfig({ S3_BUCKET: 'Bad_Bucket' })).toThrow('S3_BUCKET="Bad_Bucket": must be a bucket name');
    expect(() => loadConfig({ S3_BUCKET: 'atrium-blobs', BLOB_READ_WRITE_TOKEN: 'vercel_blob_rw_store_secret' })).toThrow('S3_BUCKET and BLOB_READ_WRITE_TOKEN: choose one blob store');
    expect(() => loadConfig({ S3_BUCKET: 'atrium-blobs', S3_SECRET_ACCESS_KEY: 'shh' })).not.toThrow(/shh/);
  });

  it('stops npm start before anything else with that message and exit code 1', () => {
    const result = spawnSync(process.execPath, ['scripts/start.ts'], { env: { ...process.env, PORT: 'abc' }, encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe('Invalid configuration:\n  PORT="abc": must be a whole number from 1 to 65535');
  });

  it('takes OAuth clients only with both id and secret, and checks the sign-in settings', () => {
    const config = loadConfig({ GITHUB_CLIENT_ID: 'id', GITHUB_CLIENT_SECRET: 'secret', TRUST_PROXY: 'true', SMTP_URL: 'smtp://mail.example.com:587' });
    expect(config).toMatchObject({ github: { clientId: 'id', clientSecret: 'secret' }, google: null, trustProxy: true, smtpFrom: 'Atrium <atrium@localhost>' });
    expect(() => loadConfig({ GOOGLE_CLIENT_ID: 'id' })).toThrow('GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET: set both or neither');
    expect(() => loadConfig({ SMTP_URL: 'mail.example.com' })).toThrow('SMTP_URL=(hidden): must be an smtp:// or smtps:// URL');
    expect(() => loadConfig({ AUTH_SECRET: 'short' })).toThrow('AUTH_SECRET=(hidden): must be at least 32 characters');
    expect(() => loadConfig({ TRUST_PROXY: 'maybe' })).toThrow('TRUST_PROXY="maybe": must be true or false');
  });
});
