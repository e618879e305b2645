import { createServer, type IncomingMessage } from 'node:http';

/** One request the stand-in received. */
export interface RecordedChatRequest {
  model: string;
  temperature?: number;
  messages: { role: string; content: unknown }[];
  headers: IncomingMessage['headers'];
}

export interface FakeOpenAI {
  /** The base URL to pass as OPENAI_BASE_URL (ends in /v1). */
  baseUrl: string;
  requests: RecordedChatRequest[];
  /**
   * What the next answers say; by default an echo of the last user message. An async `fn` holds the
   * answer until it settles: whatever it does happens during the model call.
   */
  answerWith: (fn: (request: RecordedChatRequest) => string | Promise<string>) => void;
  /** The next `count` requests fail with `status` (a provider outage). */
  failNext: (count: number, status?: number) => void;
  /** Every answer from now on takes this long (a slow model); 0 by default. */
  respondAfter: (ms: number) => void;
  /** A streamed answer waits this long between its words (a model writing); 0 by default. */
  streamWordsEvery: (ms: number) => void;
  close: () => Promise<void>;
}

/**
 * A loopback server speaking OpenAI's chat-completions API, so tests run the real langchain
 * client over real HTTP without reaching a provider.
 */
export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const requests: RecordedChatRequest[] = [];
  let answer = (r: RecordedChatRequest): string | Promise<string> => {
    const last = [...r.messages].reverse().find((m) => m.role === 'user');
    return `Answer to: ${typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content)}`;
  };
  let failures = 0;
  let failStatus = 503;
  let delayMs = 0;
  let streamDelayMs = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        return send(404, { error: { message: 'not found', type: 'invalid_request_error' } });
      }
      let body: Omit<RecordedChatRequest, 'headers'>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send(400, { error: { message: 'bad json', type: 'invalid_request_error' } });
      }
      const recorded = { ...body, headers: req.headers };
      requests.push(recorded);
      if (failures > 0) {
        failures--;
        return send(failStatus, { error: { message: 'The provider is unavailable', type: 'server_error' } });
      }
      let content: string;
      try {
        content = await answer(recorded);
      } catch (err) {
        return send(500, { error: { message: String(err), type: 'server_error' } });
      }
      // stream: true, as a streaming client asks: the answer in word-sized chunks, as server-sent events.
      const streamed = () => {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const id = `chatcmpl-${requests.length}`;
        const chunk = (delta: object, finish: string | null) =>
          `data: ${JSON.stringify({
            id,
            object: 'chat.completion.chunk',
            created: Math.floor(Date.now() / 1000),
            model: body.model,
            choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
          })}\n\n`;
        const words = content.match(/\S+\s*/g) ?? [content];
        res.write(chunk({ role: 'assistant', content: '' }, null));
        let i = 0;
        const next = () => {
          if (i < words.length) {
            res.write(chunk({ content: words[i++] }, null));
            if (streamDelayMs > 0) setTimeout(next, streamDelayMs);
            else setImmediate(next);
            return;
          }
          res.write(chunk({}, 'stop'));
          res.end('data: [DONE]\n\n');
        };
        next();
      };
      const reply = () =>
        (body as { stream?: boolean }).stream
          ? streamed()
          : send(200, {
              id: `chatcmpl-${requests.length}`,
              object: 'chat.completion',
              created: Math.floor(Date.now() / 1000),
              model: body.model,
              choices: [
                { index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null },
              ],
              usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
            });
      if (delayMs > 0) setTimeout(reply, delayMs);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    answerWith: (fn) => {
      answer = fn;
    },
    respondAfter: (ms) => {
      delayMs = ms;
    },
    streamWordsEvery: (ms) => {
      streamDelayMs = ms;
    },
    failNext: (count, status = 503) => {
      failures = count;
      failStatus = status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
