/**
 * An event stream read with fetch, for an embed that must send headers (EventSource sends none): the
 * same events, `onopen`/`onerror`, `readyState` and reconnection with Last-Event-ID as EventSource.
 * A refused answer (not 200 text/event-stream) closes it for good, as EventSource does.
 */
export class FetchEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  readyState = FetchEventSource.CONNECTING;
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  private readonly abort = new AbortController();
  private lastEventId = '';
  private retryMs = 3_000;

  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string>,
  ) {
    super();
    void this.connect();
  }

  close(): void {
    this.readyState = FetchEventSource.CLOSED;
    this.abort.abort();
  }

  private async connect(): Promise<void> {
    while (this.readyState !== FetchEventSource.CLOSED) {
      this.readyState = FetchEventSource.CONNECTING;
      try {
        const response = await fetch(this.url, {
          headers: {
            ...this.headers,
            accept: 'text/event-stream',
            ...(this.lastEventId ? { 'last-event-id': this.lastEventId } : {}),
          },
          cache: 'no-store',
          signal: this.abort.signal,
        });
        if (
          !response.ok ||
          !response.body ||
          !/text\/event-stream/.test(response.headers.get('content-type') ?? '')
        ) {
          this.readyState = FetchEventSource.CLOSED;
          this.onerror?.(new Event('error'));
          return;
        }
        this.readyState = FetchEventSource.OPEN;
        this.onopen?.(new Event('open'));
        await this.read(response.body);
      } catch {
        if (this.abort.signal.aborted) return;
      }
      if (this.readyState === FetchEventSource.CLOSED) return;
      // Dropped: say so, then reconnect after the server's retry (EventSource's behaviour).
      this.readyState = FetchEventSource.CONNECTING;
      this.onerror?.(new Event('error'));
      await new Promise((resolve) => setTimeout(resolve, this.retryMs));
    }
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let type = '';
    let data: string[] = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      const lines = buffer.split(/\r\n|\r|\n/);
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (line === '') {
          if (data.length > 0) {
            this.dispatchEvent(
              new MessageEvent(type || 'message', { data: data.join('\n'), lastEventId: this.lastEventId }),
            );
          }
          type = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const text = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') type = text;
        else if (field === 'data') data.push(text);
        else if (field === 'id') this.lastEventId = text;
        else if (field === 'retry' && /^\d+$/.test(text)) this.retryMs = Number(text);
      }
    }
  }
}
