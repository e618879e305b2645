import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeLiveEvent, encodeLiveStart, FAN_TOKEN_HEADER } from '@fanpilot/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openChatStream } from './live.ts';

/**
 * The side panel's event stream against a loopback server speaking the api's Server-Sent Events:
 * the real eventsource package over real HTTP.
 */
describe("the side panel's chat stream", () => {
  let server: Server;
  let origin: string;
  let requests: IncomingMessage[];
  let respond: (req: IncomingMessage, res: ServerResponse) => void;
  const open: ServerResponse[] = [];

  beforeEach(async () => {
    requests = [];
    server = createServer((req, res) => {
      requests.push(req);
      respond(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    for (const res of open.splice(0)) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const streamHead = (res: ServerResponse, id: string) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    res.write(encodeLiveStart(id, 50));
    open.push(res);
  };
  const state = { origin: '', token: 'T'.repeat(43) };
  const chat = { fanId: 'mobile_fan_ext_1_abc', username: 'cara' };

  it('sends the fan token as a header and no cookie, and re-reads the chat on change and sync only', async () => {
    let res!: ServerResponse;
    respond = (_req, r) => {
      res = r;
      streamHead(r, 'v1');
    };
    const onChange = vi.fn();
    const onConnected = vi.fn();
    const stream = openChatStream({ ...state, origin }, chat, { onChange, onConnected });
    await vi.waitFor(() => expect(stream.connected).toBe(true));
    expect(onConnected).toHaveBeenCalledWith(true);

    const req = requests[0]!;
    expect(req.url).toBe('/api/events/fans/mobile_fan_ext_1_abc?creator=cara');
    expect(req.headers[FAN_TOKEN_HEADER]).toBe(state.token);
    expect(req.headers.accept).toBe('text/event-stream');
    expect(req.headers.cookie).toBeUndefined();

    res.write(encodeLiveEvent({ event: 'change', data: { kind: 'messages' } }, 'v2'));
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));
    // A draft, an unknown event and a frame it cannot read re-read nothing.
    res.write(encodeLiveEvent({ event: 'draft', data: { replyTo: 'm1', text: 'Hi', done: false } }, 'v3'));
    res.write('event: change\ndata: not json\n\n');
    res.write('event: surprise\ndata: {}\n\n');
    res.write(encodeLiveEvent({ event: 'sync', data: {} }, 'v4'));
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledTimes(2));

    stream.close();
    expect(stream.connected).toBe(false);
  });

  it('reconnects a dropped stream by itself, from the last event it read', async () => {
    respond = (req, r) => {
      streamHead(r, req.headers['last-event-id'] ? 'v9' : 'v1');
      if (requests.length === 1) {
        r.write(encodeLiveEvent({ event: 'change', data: { kind: 'messages' } }, 'v7'));
        setTimeout(() => r.end(), 20);
      }
    };
    const onChange = vi.fn();
    const stream = openChatStream({ ...state, origin }, chat, { onChange });
    await vi.waitFor(() => expect(requests).toHaveLength(2), { timeout: 3_000 });
    expect(requests[1]!.headers['last-event-id']).toBe('v7');
    expect(requests[1]!.headers[FAN_TOKEN_HEADER]).toBe(state.token);
    await vi.waitFor(() => expect(stream.connected).toBe(true));
    stream.close();
  });

  it('tries a refused stream (no conversation yet) again later, less and less often, or at once when asked', async () => {
    let refuse = true;
    const at: number[] = [];
    respond = (_req, r) => {
      at.push(performance.now());
      if (refuse) {
        r.writeHead(404, { 'content-type': 'application/json' });
        r.end(JSON.stringify({ error: 'not_found', message: 'No conversation yet.' }));
      } else streamHead(r, 'v1');
    };
    const stream = openChatStream(
      { ...state, origin },
      chat,
      { onChange: () => {} },
      { firstMs: 40, maxMs: 160 },
    );
    // Refused, then tried again after 40, 80, 160, 160 ms… (a timer never fires early: lower bounds).
    await vi.waitFor(() => expect(requests.length).toBeGreaterThanOrEqual(5), { timeout: 3_000 });
    expect(stream.connected).toBe(false);
    const gaps = at.slice(1, 5).map((t, i) => t - at[i]!);
    expect(gaps[0]).toBeGreaterThanOrEqual(38);
    expect(gaps[1]).toBeGreaterThanOrEqual(78);
    expect(gaps[2]).toBeGreaterThanOrEqual(158);
    expect(gaps[3]).toBeGreaterThanOrEqual(158);
    // The fan's first message starts the conversation: tried at once, not at the next retry.
    const before = requests.length;
    refuse = false;
    stream.retryNow();
    await vi.waitFor(() => expect(stream.connected).toBe(true), { timeout: 100 });
    expect(requests.length).toBe(before + 1);
    stream.close();
    // Closed: never tried again.
    const after = requests.length;
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(requests.length).toBe(after);
  });

  it('a refused stream that is closed is not tried again', async () => {
    respond = (_req, r) => {
      r.writeHead(404);
      r.end();
    };
    const stream = openChatStream(
      { ...state, origin },
      chat,
      { onChange: () => {} },
      { firstMs: 100, maxMs: 100 },
    );
    await vi.waitFor(() => expect(requests).toHaveLength(1), { interval: 5 });
    stream.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(requests).toHaveLength(1);
  });
});
