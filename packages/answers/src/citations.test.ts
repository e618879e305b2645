import type { RetrievedChunk } from '@fanpilot/knowledge';
import { packPassages } from '@fanpilot/knowledge';
import { describe, expect, it } from 'vitest';
import { citationFor, citationsFor, citedSourceKey, textFragment } from './citations.ts';

const chunk = (over: Partial<RetrievedChunk>): RetrievedChunk => ({
  chunkId: '1',
  knowledgeItemId: 'item-1',
  content: 'Some passage.',
  title: 'Title',
  source: 'source',
  metadata: {},
  score: 1,
  ...over,
});

describe('citations', () => {
  it('links a web page at the passage with a text fragment, its syntax characters escaped', () => {
    const c = citationFor(
      chunk({
        source: 'https://coach.example/guide#old',
        metadata: { url: 'https://coach.example/guide#old' },
        content: 'Well-known rule, first & last: rest two days.\nMore text.',
      }),
    );
    expect(c).toEqual({
      title: 'Title',
      source: 'https://coach.example/guide#old',
      kind: 'web',
      url: 'https://coach.example/guide#:~:text=Well%2Dknown%20rule%2C%20first%20%26%20last%3A%20rest%20two%20days.',
    });
    expect(textFragment('   ')).toBe('');
  });

  it('cites a PDF passage by its page and keeps the passage, with no address of the file', () => {
    const c = citationFor(
      chunk({
        knowledgeItemId: 'abc',
        metadata: { page: 7 },
        source: 'guide.pdf',
        content: 'Rest two days.',
      }),
    );
    expect(c).toEqual({
      title: 'Title',
      source: 'guide.pdf',
      kind: 'pdf',
      page: 7,
      itemId: 'abc',
      passage: 'Rest two days.',
    });
  });

  it('links a video passage to its moment', () => {
    expect(
      citationFor(
        chunk({
          metadata: {
            start: 95.6,
            timestampUrl: 'https://www.youtube.com/watch?v=abc&t=95s',
            videoId: 'abc',
          },
        }),
      ),
    ).toMatchObject({ kind: 'video', seconds: 95, url: 'https://www.youtube.com/watch?v=abc&t=95s' });
  });

  it('cites other files by their passage, never by a download address', () => {
    const c = citationFor(chunk({ knowledgeItemId: 'f1', source: 'notes.docx' }));
    expect(c).toMatchObject({ kind: 'file', itemId: 'f1', passage: 'Some passage.' });
    expect(c).not.toHaveProperty('url');
  });

  it('cites each source once, best first, at most three', () => {
    const list = citationsFor([
      chunk({ knowledgeItemId: 'a', title: 'A' }),
      chunk({ knowledgeItemId: 'a', title: 'A again' }),
      chunk({ knowledgeItemId: 'b', title: 'B' }),
      chunk({ knowledgeItemId: 'c', title: 'C' }),
      chunk({ knowledgeItemId: 'd', title: 'D' }),
    ]);
    expect(list.map((c) => c.title)).toEqual(['A', 'B', 'C']);
  });
});

describe('a video citation', () => {
  it('points at the caption that answers the question, not only the passage start', () => {
    const content = 'Warm up first. Roll your shoulders. Now the sauna part: stay twelve minutes.';
    const video = chunk({
      content,
      metadata: {
        start: 72,
        timestampUrl: 'https://www.youtube.com/watch?v=abc&t=72s',
        moments: [
          [0, 72],
          [15, 80],
          [content.indexOf('Now'), 95],
        ],
      },
    });
    expect(citationFor(video, 'How long should I stay in the sauna?')).toMatchObject({
      seconds: 95,
      url: 'https://www.youtube.com/watch?v=abc&t=95s',
    });
    // No question words in any caption, or no offsets: the passage's start.
    expect(citationFor(video, 'Hello?')).toMatchObject({ seconds: 72 });
    expect(
      citationFor(
        chunk({ metadata: { start: 10, timestampUrl: 'https://www.youtube.com/watch?v=x' } }),
        'sauna',
      ),
    ).toMatchObject({
      seconds: 10,
      url: 'https://www.youtube.com/watch?v=x&t=10s',
    });
  });
  it('two pages of one crawled site are two sources, each cited by its own title and address, never joined (record 0073)', () => {
    const site = 'item-site';
    const diet = chunk({
      chunkId: '10',
      knowledgeItemId: site,
      ordinal: 3,
      title: 'Nutrition',
      source: 'https://coach.example/nutrition.html',
      metadata: {
        url: 'https://coach.example/nutrition.html',
        title: 'Nutrition',
        site: 'https://coach.example/',
      },
      content: 'Eat oats before a long run.',
    });
    const plan = chunk({
      chunkId: '11',
      knowledgeItemId: site,
      ordinal: 4,
      title: 'Training plan',
      source: 'https://coach.example/plan.html',
      metadata: {
        url: 'https://coach.example/plan.html',
        title: 'Training plan',
        site: 'https://coach.example/',
      },
      content: 'Run three times a week.',
    });
    expect(citedSourceKey(diet)).not.toBe(citedSourceKey(plan));
    expect(citationsFor([diet, plan])).toEqual([
      expect.objectContaining({
        title: 'Nutrition',
        url: expect.stringMatching(/^https:\/\/coach\.example\/nutrition\.html#/),
      }),
      expect.objectContaining({
        title: 'Training plan',
        url: expect.stringMatching(/^https:\/\/coach\.example\/plan\.html#/),
      }),
    ]);
    // Neighbouring chunks (ordinals 3 and 4) of different pages stay two passages, each its page's.
    const passages = packPassages([diet, plan], 10_000);
    expect(passages.map((p) => [p.title, p.content])).toEqual([
      ['Nutrition', 'Eat oats before a long run.'],
      ['Training plan', 'Run three times a week.'],
    ]);
  });
});
