import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Stripe from 'stripe';

/** A request the loopback Stripe received, its form body decoded. */
export interface StripeCall {
  method: string;
  path: string;
  form: Record<string, string>;
  authorization: string | undefined;
  /** The Stripe-Account header: the connected account the call acts on. */
  account: string | undefined;
  idempotencyKey: string | undefined;
}

type Obj = Record<string, unknown>;
const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);
const DAY = 86_400;

/** `metadata[a]=1&metadata[b]=2` → { a: '1', b: '2' } for the given prefix. */
function nested(form: Record<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  const pattern = new RegExp(`^${prefix.replace(/[[\]]/g, '\\$&')}\\[([^\\]]+)\\]$`);
  for (const [k, v] of Object.entries(form)) {
    const m = pattern.exec(k);
    if (m) out[m[1]!] = v;
  }
  return out;
}

/** A signed webhook delivery: the exact body and its Stripe-Signature header. */
export interface SignedEvent {
  id: string;
  type: string;
  payload: string;
  signature: string;
}

/**
 * A loopback server speaking the part of Stripe's API the api uses, so the real `stripe` client runs
 * against it: Checkout Sessions (payment mode for credit packs; subscription mode on a connected
 * account, with an application fee), Payment Intents, Connect accounts (Express) and account links,
 * the billing portal, payouts. A test plays Stripe's side with the helpers (a fan paying, onboarding
 * finished, a renewal failing, a refund…), each giving the signed webhook events Stripe would post.
 */
/**
 * The hosted pages' look: sized for a phone as Stripe's own pages are (a viewport, one column,
 * full-width fields and buttons a thumb can hit, 16 px text so iOS does not zoom into a field), and
 * a centred card on a wider screen.
 */
const HOSTED_PAGE_CSS = [
  '*,*::before,*::after{box-sizing:border-box}',
  'body{margin:0;background:#f6f9fc;color:#1a1f36;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}',
  'main{width:100%;max-width:28rem;margin:0 auto;padding:1.5rem 1rem}',
  '@media (min-width:40rem){main{margin-top:3rem;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 2px 12px rgba(0,0,0,.08)}}',
  '.test{display:inline-block;margin:0 0 .5rem;padding:.125rem .5rem;border-radius:4px;background:#ffde92;color:#5d4200;font-size:.75rem;font-weight:600}',
  'h1{margin:0 0 1rem;font-size:1.5rem;line-height:1.25;overflow-wrap:anywhere}',
  'p{overflow-wrap:anywhere}',
  'form{display:flex;flex-direction:column;gap:1rem}',
  'label{display:flex;flex-direction:column;gap:.25rem;font-size:.875rem;font-weight:600}',
  'input{width:100%;min-height:44px;padding:.5rem .75rem;border:1px solid #c4cdd5;border-radius:6px;font:inherit;font-weight:400}',
  'button{width:100%;min-height:44px;padding:.625rem 1rem;border:0;border-radius:6px;background:#635bff;color:#fff;font:inherit;font-weight:600;cursor:pointer}',
].join('');

export async function startStripeService(options: StripeServiceOptions = {}) {
  const calls: StripeCall[] = [];
  const sessions = new Map<string, Obj>();
  const accounts = new Map<string, Obj>();
  const subscriptions = new Map<string, Obj>();
  const payouts = new Map<string, Obj[]>();
  const idempotent = new Map<string, unknown>();
  let down = false;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const connectWebhookSecret = options.separateConnectEndpoint
    ? `whsec_${randomBytes(16).toString('hex')}`
    : webhookSecret;
  const stateFile = options.dataDir ? path.join(options.dataDir, STATE_FILE) : null;
  /** What Stripe would still know after a restart: written after every change when `dataDir` is set. */
  const save = () => {
    if (!stateFile) return;
    const state: SavedState = {
      version: 1,
      sessions: [...sessions],
      accounts: [...accounts],
      subscriptions: [...subscriptions],
      payouts: [...payouts],
      idempotent: [...idempotent],
    };
    mkdirSync(path.dirname(stateFile), { recursive: true });
    const temp = `${stateFile}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(state), { mode: 0o600 });
    renameSync(temp, stateFile);
  };

  const subscriptionOf = (subId: string) => {
    const sub = subscriptions.get(subId);
    if (!sub) throw new Error(`no subscription ${subId}`);
    return sub;
  };

  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      answer();
      save();
    });
    function answer() {
      const url = new URL(req.url ?? '/', 'http://stripe.test');
      const form = Object.fromEntries(new URLSearchParams(raw || url.search.slice(1)));
      const account = req.headers['stripe-account'] as string | undefined;
      const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
      calls.push({
        method: req.method ?? '',
        path: url.pathname,
        form,
        authorization: req.headers.authorization,
        account,
        idempotencyKey,
      });
      const send = (status: number, body: unknown) =>
        res
          .writeHead(status, {
            'content-type': 'application/json',
            'request-id': `req_${randomBytes(6).toString('hex')}`,
          })
          .end(JSON.stringify(body));
      if (down) return send(500, { error: { type: 'api_error', message: 'Stripe is having a bad day.' } });
      if (url.pathname.startsWith('/hosted/')) {
        void hosted(req.method ?? 'GET', url, form, res);
        return;
      }
      if (!req.headers.authorization?.startsWith('Bearer sk_test_')) {
        return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      }
      // A connected account this Stripe does not know (deleted, or made under other keys): Stripe's answer.
      if (account && !accounts.has(account)) {
        return send(403, {
          error: {
            type: 'invalid_request_error',
            code: 'account_invalid',
            message: `The provided key 'sk_test_***' does not have access to account '${account}' (or that account does not exist). Application access may have been revoked.`,
          },
        });
      }
      const replayKey = idempotencyKey ? `${account ?? ''}:${url.pathname}:${idempotencyKey}` : null;
      if (replayKey && req.method === 'POST' && idempotent.has(replayKey))
        return send(200, idempotent.get(replayKey));
      const ok = (body: unknown) => {
        if (replayKey && req.method === 'POST') idempotent.set(replayKey, body);
        return send(200, body);
      };
      const notFound = (what: string) =>
        send(404, {
          error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` },
        });

      if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        const sessionId = `cs_test_${randomBytes(12).toString('hex')}`;
        const subscription = form.mode === 'subscription';
        const session = {
          id: sessionId,
          object: 'checkout.session',
          mode: form.mode,
          url: `${base()}/hosted/c/pay/${sessionId}`,
          payment_status: 'unpaid',
          status: 'open',
          client_reference_id: form.client_reference_id ?? null,
          customer_email: form.customer_email ?? null,
          metadata: nested(form, 'metadata'),
          amount_total: Number(form['line_items[0][price_data][unit_amount]'] ?? 0),
          currency: form['line_items[0][price_data][currency]'],
          success_url: form.success_url,
          cancel_url: form.cancel_url,
          subscription: null,
          customer: null,
          ...(subscription
            ? {
                // What the stand-in keeps to play the subscription later (Stripe keeps it too).
                _subscription: {
                  interval: form['line_items[0][price_data][recurring][interval]'],
                  amount: Number(form['line_items[0][price_data][unit_amount]'] ?? 0),
                  feePercent: Number(form['subscription_data[application_fee_percent]'] ?? 0),
                  trialDays: Number(form['subscription_data[trial_period_days]'] ?? 0),
                  metadata: nested(form, 'subscription_data[metadata]'),
                },
                _account: account ?? null,
              }
            : {}),
        };
        if (subscription && (!account || !accounts.has(account))) return notFound(`account: '${account}'`);
        sessions.set(sessionId, session);
        return ok(publicSession(session));
      }
      const sessionMatch = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && sessionMatch) {
        const session = sessions.get(sessionMatch[1]!);
        if (!session || (session._account ?? undefined) !== account) return notFound('checkout.session');
        const out = publicSession(session);
        const expand = Object.entries(form)
          .filter(([k]) => k.startsWith('expand'))
          .map(([, v]) => v);
        if (expand.includes('subscription') && typeof session.subscription === 'string')
          out.subscription = subscriptions.get(session.subscription) ?? session.subscription;
        return send(200, out);
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
      if (req.method === 'POST' && url.pathname === '/v1/accounts') {
        const acct = {
          id: id('acct'),
          object: 'account',
          type: form.type ?? 'express',
          email: form.email ?? null,
          metadata: nested(form, 'metadata'),
          charges_enabled: false,
          payouts_enabled: false,
          details_submitted: false,
        };
        accounts.set(acct.id, acct);
        return ok(acct);
      }
      const accountMatch = /^\/v1\/accounts\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && accountMatch) {
        const acct = accounts.get(accountMatch[1]!);
        return acct ? send(200, acct) : notFound('account');
      }
      if (req.method === 'POST' && url.pathname === '/v1/account_links') {
        if (!form.account || !accounts.has(form.account)) return notFound(`account: '${form.account}'`);
        return ok({
          object: 'account_link',
          created: nowSeconds(),
          expires_at: nowSeconds() + 300,
          url: `${base()}/hosted/setup/${form.account}?return=${encodeURIComponent(form.return_url ?? '')}`,
        });
      }
      if (req.method === 'POST' && url.pathname === '/v1/billing_portal/sessions') {
        const customer = form.customer;
        const known = [...subscriptions.values()].some(
          (s) => s.customer === customer && s._account === account,
        );
        if (!known) return notFound(`customer: '${customer}'`);
        return ok({
          id: id('bps'),
          object: 'billing_portal.session',
          customer,
          return_url: form.return_url,
          url: `${base()}/hosted/p/${subscriptionOfCustomer(customer!, account)}?return=${encodeURIComponent(form.return_url ?? '')}`,
        });
      }
      if (req.method === 'GET' && url.pathname === '/v1/payouts') {
        const list = account ? (payouts.get(account) ?? []) : [];
        return send(200, { object: 'list', data: list, has_more: false, url: '/v1/payouts' });
      }
      return send(404, {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${url.pathname})` },
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  function base() {
    return `http://127.0.0.1:${port}`;
  }
  if (stateFile) load(stateFile);
  /** Stripe's memory from an earlier run on the same data directory (hosted pages on today's port). */
  function load(file: string) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    const state = JSON.parse(text) as SavedState;
    if (state.version !== 1) throw new Error(`${file}: unknown local Stripe state version ${state.version}`);
    for (const [k, v] of state.sessions) sessions.set(k, { ...v, url: `${base()}/hosted/c/pay/${k}` });
    for (const [k, v] of state.accounts) accounts.set(k, v);
    for (const [k, v] of state.subscriptions) subscriptions.set(k, v);
    for (const [k, v] of state.payouts) payouts.set(k, v);
    for (const [k, v] of state.idempotent) idempotent.set(k, v);
  }
  const subscriptionOfCustomer = (customer: string, account: string | undefined) =>
    [...subscriptions.values()].find((s) => s.customer === customer && s._account === account)?.id as string;

  /** Where Stripe posts its events (set by a test that lets the hosted pages drive everything). */
  let webhookUrl: string | null = null;
  const post = async (events: SignedEvent[]) => {
    if (!webhookUrl) return;
    for (const e of events) {
      await fetch(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': e.signature },
        body: e.payload,
      });
    }
  };
  const page = (title: string, body: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><style>${HOSTED_PAGE_CSS}</style></head><body><main><p class="test">Loopback Stripe (test)</p><h1>${title}</h1>${body}</main></body></html>`;
  const esc = (v: string) => v.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

  /**
   * Stripe's hosted pages, played on loopback: Express onboarding, Checkout and the customer portal.
   * Each form does what the real page would (and posts Stripe's signed events to the webhook), then
   * goes back where the api asked.
   */
  async function hosted(
    method: string,
    url: URL,
    form: Record<string, string>,
    res: import('node:http').ServerResponse,
  ) {
    const html = (status: number, body: string) =>
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    const back = (to: string) => res.writeHead(303, { location: to }).end();
    const setup = /^\/hosted\/setup\/([^/]+)$/.exec(url.pathname);
    const pay = /^\/hosted\/c\/pay\/([^/]+)$/.exec(url.pathname);
    const portal = /^\/hosted\/p\/([^/]+)$/.exec(url.pathname);
    const returnTo = url.searchParams.get('return') ?? '/';
    if (setup && accounts.has(setup[1]!)) {
      if (method === 'GET')
        return html(
          200,
          page(
            'Set up payouts',
            `<form method="post"><button type="submit">Finish onboarding</button></form>`,
          ),
        );
      await post([service.finishOnboarding(setup[1]!)]);
      return back(returnTo);
    }
    if (pay && sessions.has(pay[1]!)) {
      const session = sessions.get(pay[1]!)!;
      const plan = session._subscription as { amount: number; interval: string } | undefined;
      if (method === 'GET') {
        const price = plan ? `$${(plan.amount / 100).toFixed(2)} / ${plan.interval}` : '';
        return html(
          200,
          page(
            'Checkout',
            `<p>${esc(price)}</p><form method="post"><label>Email <input name="email" type="email" value="${esc(String(session.customer_email ?? ''))}" required></label><button type="submit">Pay</button></form>`,
          ),
        );
      }
      const paid = service.payCheckout(pay[1]!, form.email ?? 'fan@example.com');
      await post(paid.events);
      return back(String(session.success_url).replace('{CHECKOUT_SESSION_ID}', pay[1]!));
    }
    if (portal && subscriptions.has(portal[1]!)) {
      if (method === 'GET')
        return html(
          200,
          page(
            'Manage subscription',
            `<form method="post"><button type="submit">Cancel subscription</button></form>`,
          ),
        );
      await post([service.setCancelAtPeriodEnd(portal[1]!, true)]);
      return back(returnTo);
    }
    return html(404, page('Not found', ''));
  }
  const secretKey = `sk_test_${randomBytes(8).toString('hex')}`;
  const client = new Stripe(secretKey, {
    host: '127.0.0.1',
    port,
    protocol: 'http',
    maxNetworkRetries: 0,
  });

  /** The session as Stripe shows it (the stand-in's own notes left out). */
  function publicSession(session: Obj): Obj {
    const { _subscription, _account, ...rest } = session;
    return { ...rest };
  }

  /** A webhook event for `object`, signed as Stripe signs it (`account`: a connected account's event). */
  function sign(
    type: string,
    object: Obj,
    options: {
      account?: string | null;
      created?: number;
      secret?: string;
      eventId?: string;
      timestamp?: number;
    } = {},
  ): SignedEvent {
    const eventId = options.eventId ?? id('evt');
    const payload = JSON.stringify({
      id: eventId,
      object: 'event',
      type,
      api_version: '2026-10-28.endive',
      created: options.created ?? nowSeconds(),
      ...(options.account ? { account: options.account } : {}),
      data: { object: cleanObject(object) },
    });
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? (options.account ? connectWebhookSecret : webhookSecret),
      ...(options.timestamp ? { timestamp: options.timestamp } : {}),
    });
    return { id: eventId, type, payload, signature };
  }

  const cleanObject = (o: Obj): Obj =>
    Object.fromEntries(Object.entries(o).filter(([k]) => !k.startsWith('_')));

  function invoiceFor(sub: Obj, paid: boolean, at: number): Obj {
    const plan = sub._plan as { amount: number; feePercent: number };
    const item = (sub.items as { data: Obj[] }).data[0]!;
    const invoiceId = id('in');
    const intentId = id('pi');
    const invoice = {
      id: invoiceId,
      object: 'invoice',
      customer: sub.customer,
      status: paid ? 'paid' : 'open',
      amount_paid: paid ? plan.amount : 0,
      amount_due: plan.amount,
      currency: 'usd',
      created: at,
      period_end: item.current_period_end,
      lines: {
        object: 'list',
        data: [
          {
            id: id('il'),
            object: 'line_item',
            amount: plan.amount,
            period: { start: item.current_period_start, end: item.current_period_end },
          },
        ],
      },
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { subscription: sub.id, metadata: sub.metadata },
      },
      payments: {
        object: 'list',
        data: [
          {
            id: id('inpay'),
            object: 'invoice_payment',
            status: paid ? 'paid' : 'open',
            payment: { type: 'payment_intent', payment_intent: intentId },
          },
        ],
      },
      // What the platform's application fee took (Stripe reports it on the charge's balance).
      _fee: Math.round((plan.amount * plan.feePercent) / 100),
      _intent: intentId,
    };
    (sub._invoices as Obj[]).push(invoice);
    return invoice;
  }

  const service = {
    /** The hosted pages post Stripe's events here (the api's /api/stripe/webhook). */
    deliverTo(url: string) {
      webhookUrl = url;
    },
    calls,
    sessions,
    accounts,
    subscriptions,
    client,
    webhookSecret,
    /** The Connect endpoint's secret: connected accounts' events are signed with it (the same one unless separateConnectEndpoint). */
    connectWebhookSecret,
    /** For an api that builds its own client (STRIPE_SECRET_KEY, STRIPE_API_BASE). */
    secretKey,
    url: `http://127.0.0.1:${port}`,
    /** Stripe down: every call answers 500 until set back. */
    setDown(value: boolean) {
      down = value;
    },
    sign,
    /** A signed checkout.session.completed event for a (credit pack) session it created. */
    completedEvent(
      sessionId: string,
      options: { eventId?: string; paymentStatus?: string; secret?: string } = {},
    ) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      const { payload, signature } = sign(
        'checkout.session.completed',
        {
          ...session,
          status: 'complete',
          payment_status: options.paymentStatus ?? 'paid',
          payment_intent: `pi_${sessionId.slice(8, 20)}`,
        },
        {
          ...(options.eventId ? { eventId: options.eventId } : {}),
          ...(options.secret ? { secret: options.secret } : {}),
        },
      );
      return { payload, signature };
    },
    /**
     * Stripe stops knowing a connected account (deleted, or the platform's keys changed): every call
     * naming it is refused as Stripe refuses it, its subscriptions and customers with it.
     */
    forgetAccount(accountId: string) {
      accounts.delete(accountId);
      for (const [subId, sub] of subscriptions) if (sub._account === accountId) subscriptions.delete(subId);
      save();
    },
    /** Stripe stops knowing a customer (removed in the dashboard): a portal for it finds nothing. */
    forgetCustomer(customerId: string) {
      for (const [subId, sub] of subscriptions) if (sub.customer === customerId) subscriptions.delete(subId);
      save();
    },
    /** The creator finished Express onboarding: the account takes charges and pays out. */
    finishOnboarding(accountId: string): SignedEvent {
      const acct = accounts.get(accountId);
      if (!acct) throw new Error(`no account ${accountId}`);
      Object.assign(acct, { charges_enabled: true, payouts_enabled: true, details_submitted: true });
      return sign('account.updated', acct, { account: accountId });
    },
    /** A payout Stripe made to the connected account. */
    addPayout(accountId: string, amount: number, status = 'paid') {
      const list = payouts.get(accountId) ?? [];
      list.unshift({
        id: id('po'),
        object: 'payout',
        amount,
        currency: 'usd',
        status,
        arrival_date: nowSeconds(),
      });
      payouts.set(accountId, list);
    },
    /**
     * The fan paid on Checkout: the session completes with a customer and a subscription (trialing
     * when the plan has a trial), the first invoice is paid. The events Stripe posts, in its order.
     */
    payCheckout(sessionId: string, email: string): { events: SignedEvent[]; subscriptionId: string } {
      const session = sessions.get(sessionId);
      if (!session?._subscription) throw new Error(`no subscription session ${sessionId}`);
      const plan = session._subscription as {
        interval: string;
        amount: number;
        feePercent: number;
        trialDays: number;
        metadata: Record<string, string>;
      };
      const accountId = session._account as string;
      const start = nowSeconds();
      const end =
        plan.trialDays > 0
          ? start + plan.trialDays * DAY
          : start + (plan.interval === 'year' ? 365 : 30) * DAY;
      const customer = id('cus');
      const sub: Obj = {
        id: id('sub'),
        object: 'subscription',
        customer,
        status: plan.trialDays > 0 ? 'trialing' : 'active',
        cancel_at_period_end: false,
        canceled_at: null,
        ended_at: null,
        application_fee_percent: plan.feePercent,
        metadata: plan.metadata,
        items: {
          object: 'list',
          data: [
            {
              id: id('si'),
              object: 'subscription_item',
              current_period_start: start,
              current_period_end: end,
              price: {
                id: id('price'),
                object: 'price',
                unit_amount: plan.amount,
                currency: 'usd',
                recurring: { interval: plan.interval },
              },
            },
          ],
        },
        _plan: plan,
        _account: accountId,
        _invoices: [],
      };
      subscriptions.set(sub.id as string, sub);
      Object.assign(session, {
        status: 'complete',
        payment_status: plan.trialDays > 0 ? 'no_payment_required' : 'paid',
        customer,
        subscription: sub.id,
        customer_details: { email },
      });
      const events = [
        sign('customer.subscription.created', sub, { account: accountId, created: start }),
        sign('checkout.session.completed', publicSession(session), { account: accountId, created: start }),
      ];
      if (plan.trialDays === 0)
        events.push(
          sign('invoice.paid', invoiceFor(sub, true, start), { account: accountId, created: start }),
        );
      return { events, subscriptionId: sub.id as string };
    },
    /** What the customer portal does on "Cancel subscription" (at period end), or to resume. */
    setCancelAtPeriodEnd(subId: string, cancel: boolean): SignedEvent {
      const sub = subscriptionOf(subId);
      sub.cancel_at_period_end = cancel;
      sub.canceled_at = cancel ? nowSeconds() : null;
      return sign('customer.subscription.updated', sub, { account: sub._account as string });
    },
    /** A renewal's payment failed: the invoice fails and the subscription goes past_due. */
    failRenewal(subId: string): SignedEvent[] {
      const sub = subscriptionOf(subId);
      const at = nowSeconds();
      sub.status = 'past_due';
      const invoice = invoiceFor(sub, false, at);
      return [
        sign('invoice.payment_failed', invoice, { account: sub._account as string, created: at }),
        sign('customer.subscription.updated', sub, { account: sub._account as string, created: at }),
      ];
    },
    /** The subscription ends now (period over after a cancel, or cancelled at once). */
    endSubscription(subId: string): SignedEvent {
      const sub = subscriptionOf(subId);
      sub.status = 'canceled';
      sub.ended_at = nowSeconds();
      return sign('customer.subscription.deleted', sub, { account: sub._account as string });
    },
    /** The last paid invoice's charge is refunded, or disputed by the fan's bank. */
    reverseLastPayment(subId: string, how: 'refund' | 'dispute'): SignedEvent {
      const sub = subscriptionOf(subId);
      const invoice = (sub._invoices as Obj[]).filter((i) => i.status === 'paid').at(-1);
      if (!invoice) throw new Error(`no paid invoice for ${subId}`);
      const intent = invoice._intent as string;
      if (how === 'refund') {
        return sign(
          'charge.refunded',
          {
            id: id('ch'),
            object: 'charge',
            payment_intent: intent,
            refunded: true,
            amount_refunded: invoice.amount_paid,
          },
          { account: sub._account as string },
        );
      }
      return sign(
        'charge.dispute.created',
        {
          id: id('dp'),
          object: 'dispute',
          payment_intent: intent,
          charge: id('ch'),
          status: 'needs_response',
          amount: invoice.amount_paid,
        },
        { account: sub._account as string },
      );
    },
    /** The fee the platform took on a subscription's paid invoices. */
    feesOf(subId: string): number {
      return (subscriptionOf(subId)._invoices as Obj[])
        .filter((i) => i.status === 'paid')
        .reduce((n, i) => n + (i._fee as number), 0);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  // Playing Stripe's side changes its state too: kept like a request's change.
  for (const name of [
    'finishOnboarding',
    'addPayout',
    'payCheckout',
    'setCancelAtPeriodEnd',
    'failRenewal',
    'endSubscription',
    'reverseLastPayment',
  ] as const) {
    const play = service[name] as (...args: unknown[]) => unknown;
    (service as Record<string, unknown>)[name] = (...args: unknown[]) => {
      const out = play(...args);
      save();
      return out;
    };
  }
  return service;
}

const STATE_FILE = 'local-stripe.json';

interface SavedState {
  version: 1;
  sessions: [string, Obj][];
  accounts: [string, Obj][];
  subscriptions: [string, Obj][];
  payouts: [string, Obj[]][];
  idempotent: [string, unknown][];
}

export interface StripeServiceOptions {
  /**
   * Where the stand-in keeps what it knows (accounts, customers' subscriptions, Checkout sessions,
   * payouts), so a restart on the same directory (`pnpm start` again) still knows them. Unset: memory only.
   */
  dataDir?: string;
  /** Sign connected accounts' events with a Connect endpoint's own secret (connectWebhookSecret). */
  separateConnectEndpoint?: boolean;
}

export type StripeService = Awaited<ReturnType<typeof startStripeService>>;
