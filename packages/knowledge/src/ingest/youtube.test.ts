import { type LoopbackServer, startYoutubeStandIn } from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IngestError } from './errors.ts';
import { fetchTranscriptSegments, fetchYoutubeTitle, NO_TRANSCRIPT, parseYoutubeUrl } from './youtube.ts';

const ID = 'dQw4w9WgXcQ';

describe('YouTube links', () => {
  it.each([
    [`https://www.youtube.com/watch?v=${ID}`, null],
    [`https://youtube.com/watch?v=${ID}&list=PL123&index=2`, null],
    [`https://m.youtube.com/watch?v=${ID}&t=90`, 90],
    [`https://www.youtube.com/watch?v=${ID}&t=1m30s`, 90],
    [`https://youtu.be/${ID}`, null],
    [`https://youtu.be/${ID}?t=42`, 42],
    [`https://www.youtube.com/shorts/${ID}`, null],
    [`https://www.youtube.com/embed/${ID}?start=15`, 15],
    [`https://www.youtube-nocookie.com/embed/${ID}`, null],
    [`https://www.youtube.com/live/${ID}?feature=share`, null],
    [`https://music.youtube.com/watch?v=${ID}#t=1h2m3s`, 3723],
    [`youtube.com/watch?v=${ID}`, null],
  ])('understands %s', (url, start) => {
    expect(parseYoutubeUrl(url)).toEqual({
      videoId: ID,
      start,
      url: `https://www.youtube.com/watch?v=${ID}`,
    });
  });

  it.each([
    ['https://vimeo.com/12345'],
    ['https://www.youtube.com/watch?v=short'],
    ['https://www.youtube.com/@somechannel'],
    ['https://evil.example/watch?v=dQw4w9WgXcQ'],
    ['not a link'],
  ])('refuses %s', (url) => {
    expect(() => parseYoutubeUrl(url)).toThrow(IngestError);
  });
});

describe('YouTube transcripts (loopback stand-in)', () => {
  let yt: LoopbackServer;
  beforeAll(async () => {
    yt = await startYoutubeStandIn({
      [ID]: {
        title: 'Squat Form & Breathing',
        captions: [
          { start: 0, duration: 3.2, text: 'Welcome back to the channel' },
          { start: 3.2, duration: 4, text: 'today we talk about &quot;bracing&quot;' },
          { start: 95.5, duration: 5, text: 'brace before you descend' },
        ],
      },
      classicVid1: {
        title: 'Classic',
        format: 'classic',
        captions: [{ start: 12.5, duration: 2, text: 'classic format line' }],
      },
      noCaptions1: { title: 'Silent film', captions: null },
    });
  });
  afterAll(async () => {
    await yt.close();
  });
  const opts = () => ({ origin: yt.url, timeoutMs: 5_000 });

  it('reads the captions with their times in seconds (srv3 and classic formats)', async () => {
    const segments = await fetchTranscriptSegments(ID, opts());
    expect(segments).toHaveLength(3);
    expect(segments[1]).toEqual({ text: 'today we talk about "bracing"', start: 3.2, duration: 4 });
    expect(segments[2]?.start).toBeCloseTo(95.5);
    const classic = await fetchTranscriptSegments('classicVid1', opts());
    expect(classic[0]).toMatchObject({ start: 12.5, duration: 2 });
  });

  it('fails a video without captions with the no-captions message', async () => {
    await expect(fetchTranscriptSegments('noCaptions1', opts())).rejects.toMatchObject({
      reason: NO_TRANSCRIPT,
      permanent: true,
    });
  });

  it('finds the title through oEmbed, or null', async () => {
    expect(await fetchYoutubeTitle(ID, opts())).toBe('Squat Form & Breathing');
    expect(await fetchYoutubeTitle('unknownVid1', opts())).toBeNull();
  });
});
