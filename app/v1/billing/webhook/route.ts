import { receiveWebhook } from '@/lib/billing/webhook.ts';
import { route } from '@/server/http/route.ts';
import { billingApi } from '@/lib/schemas/billing.ts';

// The signature is a header, which the wrapper does not hand to handlers: the
// handler is made per request around it.
export const POST = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) =>
  route(billingApi.webhook, async ({ rawBody }) => receiveWebhook(rawBody, request.headers.get('stripe-signature')))(request, context);
