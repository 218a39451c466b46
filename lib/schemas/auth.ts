import { z } from 'zod';
import { text, timestamp, user } from './common.ts';
import { endpoint } from './endpoint.ts';

// --- CLI sign-in (device flow) ---

export const cliStartBody = z.object({
  label: text().max(60).optional().meta({ description: 'Names the token, e.g. the machine: "laptop".' }),
});

export const cliStartResult = z
  .object({
    deviceCode: z.string().meta({ description: 'Secret; the CLI polls with it. Shown once.' }),
    userCode: z.string().meta({ description: 'Short code the person checks on the approval page, e.g. "BCDF-GHJK".' }),
    verificationUrl: z.string().meta({ description: 'The approval page, with the user code filled in.' }),
    expiresIn: z.number().int().meta({ description: 'Seconds until the request expires.' }),
    interval: z.number().int().meta({ description: 'Seconds to wait between polls.' }),
  })
  .meta({ id: 'CliSignInStart' });

export const cliSignInStatus = z.enum(['pending', 'approved', 'denied', 'expired']);

export const cliSignInRequest = z
  .object({
    userCode: z.string(),
    label: z.string().nullable(),
    createdAt: timestamp,
    expiresAt: timestamp,
    status: cliSignInStatus,
    requestedFrom: z
      .object({ city: z.string().nullable(), country: z.string().nullable() })
      .nullable()
      .meta({ description: 'Where the request came from, when the server is behind a trusted proxy that says so.' }),
    userAgent: z.string().nullable(),
  })
  .meta({ id: 'CliSignInRequest' });

export const userCodeParams = z.object({ userCode: text().min(1).max(20) });

export const cliDecideBody = z.object({ userCode: text().min(1).max(20), approve: z.boolean() });

export const cliPollBody = z.object({ deviceCode: text().min(1).max(200) });

export const cliPollResult = z
  .union([
    z.object({ status: z.literal('pending') }),
    z.object({ status: z.literal('approved'), token: z.string(), user }),
  ])
  .meta({ id: 'CliPollResult', description: '{status:"pending"} with 202 while pending; once approved, the API token (handed out once).' });

// --- API tokens ---

export const tokenListing = z
  .object({
    id: z.string(),
    label: z.string(),
    createdAt: timestamp,
    lastUsedAt: timestamp.nullable(),
    expiresAt: timestamp.nullable(),
    current: z.boolean().meta({ description: 'True for the token that made this request.' }),
  })
  .meta({ id: 'TokenListing' });

export const tokenIdParams = z.object({ id: text().min(1).max(100) });

export const authApi = {
  cliStart: endpoint({
    method: 'POST',
    path: '/v1/auth/cli/start',
    tag: 'Sign-in',
    summary: 'Start a command-line sign-in; a person approves it in the web app',
    auth: 'anonymous',
    body: cliStartBody,
    response: cliStartResult,
    errors: [400, 429],
  }),
  cliRequest: endpoint({
    method: 'GET',
    path: '/v1/auth/cli/requests/{userCode}',
    tag: 'Sign-in',
    summary: 'A command-line sign-in request as its approver sees it (web session only)',
    auth: 'web',
    params: userCodeParams,
    response: cliSignInRequest,
    errors: [401, 403, 404],
  }),
  cliDecide: endpoint({
    method: 'POST',
    path: '/v1/auth/cli/decide',
    tag: 'Sign-in',
    summary: 'Approve or deny a command-line sign-in (web session only)',
    auth: 'web',
    body: cliDecideBody,
    response: null,
    errors: [400, 401, 403, 404, 409, 410],
  }),
  cliPoll: endpoint({
    method: 'POST',
    path: '/v1/auth/cli/poll',
    tag: 'Sign-in',
    summary: 'Poll a command-line sign-in: 202 while pending, the token once approved, 403 denied, 410 expired',
    auth: 'anonymous',
    body: cliPollBody,
    response: cliPollResult,
    errors: [400, 403, 404, 410, 429],
  }),
  tokens: endpoint({
    method: 'GET',
    path: '/v1/tokens',
    tag: 'Tokens',
    summary: "The caller's API tokens and web sessions",
    auth: 'user',
    response: z.object({ tokens: z.array(tokenListing) }),
    errors: [401],
  }),
  createToken: endpoint({
    method: 'POST',
    path: '/v1/tokens',
    tag: 'Tokens',
    summary: 'Create an API token for the caller (web session only); the secret is answered once',
    auth: 'web',
    body: z.object({ label: text().trim().min(1).max(100) }),
    response: z.object({ token: z.string(), id: z.string(), label: z.string(), expiresAt: timestamp.nullable() }).meta({ id: 'NewToken' }),
    errors: [400, 401, 403],
  }),
  revokeCurrentToken: endpoint({
    method: 'DELETE',
    path: '/v1/tokens/current',
    tag: 'Tokens',
    summary: 'Revoke the API token making this request (400 with a web session)',
    auth: 'user',
    response: null,
    errors: [400, 401],
  }),
  revokeToken: endpoint({
    method: 'DELETE',
    path: '/v1/tokens/{id}',
    tag: 'Tokens',
    summary: "Revoke one of the caller's tokens",
    auth: 'user',
    params: tokenIdParams,
    response: null,
    errors: [401, 404],
  }),
};

export type CliStartResult = z.infer<typeof cliStartResult>;
export type CliSignInRequest = z.infer<typeof cliSignInRequest>;
export type CliPollResult = z.infer<typeof cliPollResult>;
export type TokenListing = z.infer<typeof tokenListing>;
