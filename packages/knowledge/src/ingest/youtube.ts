import {
  YoutubeTranscript,
  YoutubeTranscriptDisabledError,
  YoutubeTranscriptNotAvailableError,
  YoutubeTranscriptNotAvailableLanguageError,
  YoutubeTranscriptTooManyRequestError,
  YoutubeTranscriptVideoUnavailableError,
} from 'youtube-transcript';
import type { TranscriptSegment } from './chunk.ts';
import { IngestError, permanent, transient } from './errors.ts';

export const NO_TRANSCRIPT = 'No transcript available for this video';
const YOUTUBE_ORIGIN = 'https://www.youtube.com';
const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const HOSTS = /^(?:www\.|m\.|music\.)?(?:youtube\.com|youtube-nocookie\.com)$/;

export interface YoutubeLink {
  videoId: string;
  /** Seconds the link starts at (t= or start=), when it has one. */
  start: number | null;
  /** The canonical watch URL. */
  url: string;
}

/** "90", "90s", "1m30s", "1h2m3s" → seconds. */
function seconds(raw: string | null): number | null {
  if (!raw) return null;
  if (/^\d+$/.test(raw)) return Number(raw);
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(raw);
  if (!m || (!m[1] && !m[2] && !m[3])) return null;
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
}

/** Every common link form: watch, youtu.be, shorts, embed, live, v/, with or without timestamps. */
export function parseYoutubeUrl(raw: string): YoutubeLink {
  const notYoutube = () => permanent('This is not a YouTube video link.');
  let url: URL;
  try {
    const trimmed = raw.trim();
    url = new URL(/^https?:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
  } catch {
    throw notYoutube();
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw notYoutube();
  const host = url.hostname.toLowerCase();
  let id: string | undefined;
  if (host === 'youtu.be') {
    id = url.pathname.split('/')[1];
  } else if (HOSTS.test(host)) {
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts[0] === 'watch') id = url.searchParams.get('v') ?? undefined;
    else if (['shorts', 'embed', 'live', 'v', 'e'].includes(parts[0] ?? '')) id = parts[1];
    else if (parts.length === 0 || parts[0] === 'attribution_link')
      id = url.searchParams.get('v') ?? undefined;
  }
  if (!id || !VIDEO_ID.test(id)) throw notYoutube();
  const hashT = new URLSearchParams(url.hash.replace(/^#/, '')).get('t');
  const start = seconds(url.searchParams.get('t') ?? url.searchParams.get('start') ?? hashT);
  return { videoId: id, start, url: `${YOUTUBE_ORIGIN}/watch?v=${id}` };
}

/**
 * fetch for YouTube's endpoints with a time limit, pointed at `origin` (tests use a loopback
 * stand-in; production leaves it at YouTube). Remembers whether the caption body was srv3
 * (milliseconds) or the classic format (seconds), which youtube-transcript does not say.
 */
export function youtubeFetch(origin: string, timeoutMs: number, signal?: AbortSignal) {
  const state = { captionsInMilliseconds: false };
  const fetchFn: typeof fetch = async (input, init) => {
    const original = new URL(input instanceof Request ? input.url : String(input));
    let target = original;
    if (origin !== YOUTUBE_ORIGIN && /(^|\.)youtube\.com$/.test(original.hostname)) {
      target = new URL(`${original.pathname}${original.search}`, origin);
    }
    const deadline = AbortSignal.timeout(timeoutMs);
    const response = await fetch(target, {
      ...init,
      redirect: 'error',
      signal: signal ? AbortSignal.any([deadline, signal]) : deadline,
    });
    if (original.pathname.startsWith('/api/timedtext')) {
      const body = await response.text();
      state.captionsInMilliseconds = /<p\s+t="\d+"/.test(body);
      return new Response(body, { status: response.status, headers: response.headers });
    }
    return response;
  };
  return { fetch: fetchFn, state };
}

export interface YoutubeOptions {
  origin: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** The video's title from oEmbed, else from its page; null when neither answers. */
export async function fetchYoutubeTitle(videoId: string, options: YoutubeOptions): Promise<string | null> {
  const { fetch: yt } = youtubeFetch(options.origin, options.timeoutMs, options.signal);
  const watch = `${YOUTUBE_ORIGIN}/watch?v=${videoId}`;
  try {
    const res = await yt(`${YOUTUBE_ORIGIN}/oembed?url=${encodeURIComponent(watch)}&format=json`);
    if (res.ok) {
      const body = (await res.json()) as { title?: unknown };
      if (typeof body.title === 'string' && body.title.trim()) return body.title.trim();
    }
  } catch {
    // Fall through to the page title.
  }
  try {
    const res = await yt(watch);
    if (res.ok) {
      const html = (await res.text()).slice(0, 512 * 1024);
      const og = /<meta\s+(?:property|name)="og:title"\s+content="([^"]+)"/i.exec(html)?.[1];
      const title = og ?? /<title>([^<]+)<\/title>/i.exec(html)?.[1]?.replace(/\s*-\s*YouTube\s*$/, '');
      if (title?.trim()) return decodeEntities(title.trim());
    }
  } catch {
    // No title; the caller shows a placeholder.
  }
  return null;
}

const decodeEntities = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The video's captions as segments timed in seconds, or a reason a person understands. */
export async function fetchTranscriptSegments(
  videoId: string,
  options: YoutubeOptions,
): Promise<TranscriptSegment[]> {
  const { fetch: yt, state } = youtubeFetch(options.origin, options.timeoutMs, options.signal);
  let raw: { text: string; offset: number; duration: number }[];
  try {
    raw = await YoutubeTranscript.fetchTranscript(videoId, { fetch: yt });
  } catch (err) {
    if (err instanceof IngestError) throw err;
    if (
      err instanceof YoutubeTranscriptDisabledError ||
      err instanceof YoutubeTranscriptNotAvailableError ||
      err instanceof YoutubeTranscriptNotAvailableLanguageError
    ) {
      throw permanent(NO_TRANSCRIPT, err);
    }
    if (err instanceof YoutubeTranscriptVideoUnavailableError) {
      throw permanent('This video is unavailable or private.', err);
    }
    if (err instanceof YoutubeTranscriptTooManyRequestError) {
      throw transient('YouTube is limiting requests right now. It will be retried.', err);
    }
    throw transient('YouTube could not be reached. It will be retried.', err);
  }
  const scale = state.captionsInMilliseconds ? 1 / 1000 : 1;
  const segments = raw
    .map((s) => ({ text: s.text, start: s.offset * scale, duration: s.duration * scale }))
    .filter((s) => s.text.trim());
  if (segments.length === 0) throw permanent(NO_TRANSCRIPT);
  return segments;
}
