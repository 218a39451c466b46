import { statSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { Cli } from './cli.ts';

async function webSession(request: APIRequestContext, handle: string): Promise<string> {
  const response = await request.post('/v1/auth/dev-login', { data: { handle, label: 'web' } });
  return (await response.json()).token;
}

async function decide(request: APIRequestContext, session: string, userCode: string, approve: boolean) {
  const response = await request.post('/v1/auth/cli/decide', {
    data: { userCode, approve },
    headers: { authorization: `Bearer ${session}` },
  });
  expect(response.status()).toBe(204);
}

test('atrium login is approved on the web, and the CLI then works as that person until logout', async ({ request, baseURL }) => {
  const cli = new Cli(baseURL!);
  const login = cli.start(['login', '--label', 'e2e terminal']);
  const [, userCode] = await login.waitFor(/one-time code: (\S+)/);
  expect((await login.waitFor(/approve this sign-in at (\S+)/))[1]).toBe(`${baseURL}/device?code=${userCode}`);
  await decide(request, await webSession(request, 'cli-person'), userCode, true);
  const result = await login.done;
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toBe(`Signed in to ${baseURL} as @cli-person.\n`);

  const configFile = path.join(cli.configDir, 'config.json');
  expect(statSync(configFile).mode & 0o777).toBe(0o600);

  const whoami = await cli.run(['whoami']);
  expect(whoami.code).toBe(0);
  expect(whoami.stdout).toContain(`@cli-person on ${baseURL}`);
  const json = JSON.parse((await cli.run(['whoami', '--json'])).stdout);
  expect(json.user.handle).toBe('cli-person');

  const tokens = await cli.run(['tokens']);
  expect(tokens.stdout).toMatch(/e2e terminal \(this one\)/);

  const logout = await cli.run(['logout']);
  expect(logout.code).toBe(0);
  const after = await cli.run(['whoami']);
  expect(after.code).toBe(1);
  expect(after.stderr).toContain('You are not signed in');
  expect(after.stderr).toContain('atrium login');
});

test('atrium login says so and fails when the sign-in is denied', async ({ request, baseURL }) => {
  const cli = new Cli(baseURL!);
  const login = cli.start(['login']);
  const [, userCode] = await login.waitFor(/one-time code: (\S+)/);
  await decide(request, await webSession(request, 'cli-denier'), userCode, false);
  const result = await login.done;
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('Error: The sign-in was denied in the browser.');
  expect(result.stderr).not.toMatch(/\n\s+at /);
});

test('a bad token and an unreachable server end in a clear message and a non-zero exit, without a stack trace', async ({ baseURL }) => {
  const cli = new Cli(baseURL!);
  const badToken = await cli.run(['whoami'], { ATRIUM_TOKEN: 'atr_not-a-real-token' });
  expect(badToken.code).toBe(1);
  expect(badToken.stderr).toContain('Error: The token is invalid, expired or revoked');
  expect(badToken.stderr).toContain('Run `atrium login`');

  const unreachable = await cli.run(['whoami', '--server', 'http://127.0.0.1:9'], { ATRIUM_TOKEN: 'atr_x' });
  expect(unreachable.code).toBe(1);
  expect(unreachable.stderr).toContain('Cannot reach http://127.0.0.1:9');
  expect(unreachable.stderr).not.toMatch(/\n\s+at /);
});
