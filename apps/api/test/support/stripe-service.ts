import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/** A request the loopback Stripe received, its form body decoded. */
export interface StripeCall {
  method: string;
  path: string;
  form: Record<string, string>;
  authorization: string | undefined;
}

/**
 * A loopback server speaking the part of Stripe's API the api uses (Checkout Sessions, Payment
 * Intents), so the real `stripe` client runs against it. Sessions it creates are remembered; a
 * test completes one by signing a webhook event with the client's own test helper.
 */
export async function startStripeService() {
  const calls: StripeCall[] = [];
  const sessions = new Map<string, Record<string, unknown>>();
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stripe.test');
      const form = Object.fromEntries(new URLSearchParams(raw));
      calls.push({
        method: req.method ?? '',
        path: url.pathname,
        form,
        authorization: req.headers.authorization,
      });
      const send = (status: number, body: unknown) =>
        res
          .writeHead(status, {
            'content-type': 'application/json',
            'request-id': `req_${randomBytes(6).toString('hex')}`,
          })
          .end(JSON.stringify(body));
      if (!req.headers.authorization?.startsWith('Bearer sk_test_')) {
        return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      }
      if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        const id = `cs_test_${randomBytes(12).toString('hex')}`;
        const metadata: Record<string, string> = {};
        for (const [k, v] of Object.entries(form)) {
          const m = /^metadata\[(.+)\]$/.exec(k);
          if (m) metadata[m[1]!] = v;
        }
        const session = {
          id,
          object: 'checkout.session',
          mode: form.mode,
          url: `https://checkout.stripe.test/c/pay/${id}`,
          payment_status: 'unpaid',
          status: 'open',
          client_reference_id: form.client_reference_id ?? null,
          metadata,
          amount_total: Number(form['line_items[0][price_data][unit_amount]'] ?? 0),
          currency: form['line_items[0][price_data][currency]'],
          success_url: form.success_url,
          cancel_url: form.cancel_url,
        };
        sessions.set(id, session);
        return send(200, session);
      }
      const intent = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && intent) {
        return send(200, {
          id: intent[1],
          object: 'payment_intent',
          status: 'succeeded',
          latest_charge: {
            id: `ch_${intent[1]}`,
            object: 'charge',
            receipt_url: `https://pay.stripe.test/receipts/${intent[1]}`,
          },
        });
      }
      return send(404, {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${url.pathname})` },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const secretKey = `sk_test_${randomBytes(8).toString('hex')}`;
  const client = new Stripe(secretKey, {
    host: '127.0.0.1',
    port,
    protocol: 'http',
    maxNetworkRetries: 0,
  });
  return {
    calls,
    sessions,
    client,
    webhookSecret,
    /** For an api that builds its own client (STRIPE_SECRET_KEY, STRIPE_API_BASE). */
    secretKey,
    url: `http://127.0.0.1:${port}`,
    /** A signed checkout.session.completed event for a session it created (what Stripe posts). */
    completedEvent(
      sessionId: string,
      options: { eventId?: string; paymentStatus?: string; secret?: string } = {},
    ) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      const payload = JSON.stringify({
        id: options.eventId ?? `evt_${randomBytes(12).toString('hex')}`,
        object: 'event',
        type: 'checkout.session.completed',
        api_version: '2025-01-01',
        created: Math.floor(Date.now() / 1000),
        data: {
          object: {
            ...session,
            status: 'complete',
            payment_status: options.paymentStatus ?? 'paid',
            payment_intent: `pi_${sessionId.slice(8, 20)}`,
          },
        },
      });
      const signature = Stripe.webhooks.generateTestHeaderString({
        payload,
        secret: options.secret ?? webhookSecret,
      });
      return { payload, signature };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
