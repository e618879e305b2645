import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Loopback stand-ins that speak the real protocols, for tests and the benchmark. Loopback only. */

export interface Page {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Waits before answering (a slow site, or a job to kill mid-way). */
  delayMs?: number;
  /** Waits until this promise settles before answering. */
  hold?: Promise<unknown>;
}

export interface LoopbackServer {
  /** http://127.0.0.1:port */
  url: string;
  port: number;
  /** Requests seen, by path. */
  hits: Map<string, number>;
  close: () => Promise<void>;
}

async function listen(server: Server): Promise<{ port: number }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port };
}

const closer = (server: Server) => () =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** A web site: path → page (or a function of the request). */
export async function startSite(
  pages: Record<string, Page | ((req: IncomingMessage) => Page)>,
): Promise<LoopbackServer> {
  const hits = new Map<string, number>();
  const server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const entry = pages[path];
    const page = typeof entry === 'function' ? entry(req) : entry;
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (page.delayMs) await new Promise((r) => setTimeout(r, page.delayMs));
    if (page.hold) await page.hold.catch(() => {});
    if (res.destroyed) return;
    res.writeHead(page.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...page.headers });
    res.end(page.body ?? '');
  });
  const { port } = await listen(server);
  return { url: `http://127.0.0.1:${port}`, port, hits, close: closer(server) };
}

/** An article page with navigation and footer around it, holding `paragraphs`. */
export function articlePage(title: string, paragraphs: string[]): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About us</a> <a href="/shop">Shop menu</a></nav>
<main><article><h1>${title}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}</article></main>
<footer>Copyright footer text. All rights reserved. Cookie settings.</footer></body></html>`;
}

export interface StandInVideo {
  title: string;
  /** null: the video has no captions. */
  captions: { start: number; duration: number; text: string }[] | null;
  /** srv3 (milliseconds, <p t=…>) or the classic format (seconds, <text start=…>). */
  format?: 'srv3' | 'classic';
}

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A stand-in for YouTube's endpoints that youtube-transcript and the title lookup use: the InnerTube
 * player API, the watch page, the caption track (timedtext) and oEmbed.
 */
export async function startYoutubeStandIn(videos: Record<string, StandInVideo>): Promise<LoopbackServer> {
  const hits = new Map<string, number>();
  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => resolve(body));
    });
  const send = (res: ServerResponse, status: number, type: string, body: string) =>
    res.writeHead(status, { 'content-type': type }).end(body);
  const tracks = (id: string) => [
    { baseUrl: `https://www.youtube.com/api/timedtext?v=${id}&lang=en`, languageCode: 'en' },
  ];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    if (url.pathname === '/youtubei/v1/player' && req.method === 'POST') {
      const { videoId } = JSON.parse((await read(req)) || '{}') as { videoId?: string };
      const video = videoId ? videos[videoId] : undefined;
      if (!video)
        return send(res, 200, 'application/json', JSON.stringify({ playabilityStatus: { status: 'ERROR' } }));
      const captions = video.captions
        ? { playerCaptionsTracklistRenderer: { captionTracks: tracks(videoId!) } }
        : undefined;
      return send(
        res,
        200,
        'application/json',
        JSON.stringify({ playabilityStatus: { status: 'OK' }, captions }),
      );
    }
    if (url.pathname === '/watch') {
      const id = url.searchParams.get('v') ?? '';
      const video = videos[id];
      if (!video) return send(res, 200, 'text/html', '<html><body>This video is unavailable</body></html>');
      const player = { playabilityStatus: { status: 'OK' }, videoDetails: { title: video.title } };
      return send(
        res,
        200,
        'text/html',
        `<html><head><title>${xmlEscape(video.title)} - YouTube</title></head><body><script>var ytInitialPlayerResponse = ${JSON.stringify(player)};</script></body></html>`,
      );
    }
    if (url.pathname === '/api/timedtext') {
      const video = videos[url.searchParams.get('v') ?? ''];
      if (!video?.captions) return send(res, 404, 'text/plain', '');
      const body =
        video.format === 'classic'
          ? `<?xml version="1.0" encoding="utf-8" ?><transcript>${video.captions
              .map((c) => `<text start="${c.start}" dur="${c.duration}">${xmlEscape(c.text)}</text>`)
              .join('')}</transcript>`
          : `<?xml version="1.0" encoding="utf-8" ?><timedtext format="3"><body>${video.captions
              .map(
                (c) =>
                  `<p t="${Math.round(c.start * 1000)}" d="${Math.round(c.duration * 1000)}">${xmlEscape(c.text)}</p>`,
              )
              .join('')}</body></timedtext>`;
      return send(res, 200, 'text/xml', body);
    }
    if (url.pathname === '/oembed') {
      const id = new URL(url.searchParams.get('url') ?? 'https://x/').searchParams.get('v') ?? '';
      const video = videos[id];
      if (!video) return send(res, 404, 'text/plain', 'Not Found');
      return send(res, 200, 'application/json', JSON.stringify({ title: video.title, type: 'video' }));
    }
    return send(res, 404, 'text/plain', 'not found');
  });
  const { port } = await listen(server);
  return { url: `http://127.0.0.1:${port}`, port, hits, close: closer(server) };
}

/**
 * An OpenAI-style embeddings endpoint (POST /v1/embeddings, float or base64 answers). Its vectors
 * count words by concept, so synonyms in `concepts` land near each other: enough to show vector
 * search finding what full-text search misses.
 */
export async function startEmbeddingServer(
  concepts: string[][],
  dimensions = 32,
): Promise<LoopbackServer & { requests: () => number }> {
  return startEncoderServer(async (texts) => texts.map(embedWords(concepts, dimensions)));
}

/** The word-counting vectors of `startEmbeddingServer`. */
const embedWords = (concepts: string[][], dimensions: number) => {
  const bucket = (word: string) => {
    const i = concepts.findIndex((group) => group.includes(word));
    if (i >= 0) return i % dimensions;
    let h = 0;
    for (const c of word) h = (h * 31 + c.charCodeAt(0)) >>> 0;
    return (concepts.length + (h % Math.max(1, dimensions - concepts.length))) % dimensions;
  };
  return (text: string) => {
    const v = new Array<number>(dimensions).fill(0);
    for (const w of text.toLowerCase().match(/[a-z]+/g) ?? []) v[bucket(w)]! += 1;
    const norm = Math.sqrt(v.reduce((a, b) => a + b * b, 0)) || 1;
    return v.map((x) => x / norm);
  };
};

/**
 * An OpenAI-style embeddings endpoint whose vectors come from `encode` (e.g. a real sentence
 * encoder, to measure retrieval as a provider's embeddings would rank it).
 */
export async function startEncoderServer(
  encode: (texts: string[]) => Promise<number[][]>,
): Promise<LoopbackServer & { requests: () => number }> {
  const hits = new Map<string, number>();
  let requests = 0;
  const server = createServer((req, res) => {
    hits.set(req.url ?? '/', (hits.get(req.url ?? '/') ?? 0) + 1);
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (!req.url?.endsWith('/embeddings')) {
        res.writeHead(404).end();
        return;
      }
      requests++;
      const parsed = JSON.parse(body) as {
        input: string | string[];
        model: string;
        encoding_format?: string;
      };
      const inputs = Array.isArray(parsed.input) ? parsed.input : [parsed.input];
      encode(inputs.map(String)).then(
        (vectors) => {
          const data = vectors.map((vector, index) => {
            const embedding =
              parsed.encoding_format === 'base64'
                ? Buffer.from(new Float32Array(vector).buffer).toString('base64')
                : vector;
            return { object: 'embedding', index, embedding };
          });
          res.writeHead(200, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              object: 'list',
              data,
              model: parsed.model,
              usage: { prompt_tokens: 1, total_tokens: 1 },
            }),
          );
        },
        (err: unknown) => {
          res
            .writeHead(500, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: { message: String(err) } }));
        },
      );
    });
  });
  const { port } = await listen(server);
  return { url: `http://127.0.0.1:${port}`, port, hits, requests: () => requests, close: closer(server) };
}
