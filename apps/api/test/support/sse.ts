/** A Server-Sent Events client for tests: the real stream over HTTP, its events parsed as they come. */
export interface SseEvent {
  id: string | undefined;
  event: string;
  data: string;
  at: number;
}

export interface SseClient {
  status: number;
  headers: Headers;
  events: SseEvent[];
  /** The first event (after `from`) that matches, or an error after `timeoutMs`. */
  next: (match?: (e: SseEvent) => boolean, timeoutMs?: number, from?: number) => Promise<SseEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close: () => void;
  body: string;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  const controller = new AbortController();
  const res = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  const events: SseEvent[] = [];
  const waiters = new Set<() => void>();
  let body = '';
  let endResolve!: () => void;
  const ended = new Promise<void>((resolve) => {
    endResolve = resolve;
  });
  if (res.status !== 200 || !res.body) {
    body = await res.text();
    endResolve();
  } else {
    void (async () => {
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      let lastId: string | undefined;
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let cut = buffer.indexOf('\n\n');
          while (cut >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            cut = buffer.indexOf('\n\n');
            let event = 'message';
            const data: string[] = [];
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) continue;
              const [field, ...rest] = line.split(':');
              const text = rest.join(':').replace(/^ /, '');
              if (field === 'id') lastId = text;
              if (field === 'event') event = text;
              if (field === 'data') data.push(text);
            }
            if (data.length > 0) {
              events.push({ id: lastId, event, data: data.join('\n'), at: performance.now() });
              for (const w of waiters) w();
            }
          }
        }
      } catch {
        // Aborted by close().
      } finally {
        endResolve();
        for (const w of waiters) w();
      }
    })();
  }
  const next = (match: (e: SseEvent) => boolean = () => true, timeoutMs = 5_000, from = 0) =>
    new Promise<SseEvent>((resolve, reject) => {
      const check = () => {
        const found = events.slice(from).find(match);
        if (found) {
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(events)}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return {
    status: res.status,
    headers: res.headers,
    events,
    next,
    ended,
    close: () => controller.abort(),
    get body() {
      return body;
    },
  };
}
