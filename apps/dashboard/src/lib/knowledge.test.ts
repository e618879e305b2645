import type { KnowledgeItem } from '@fanpilot/contracts';
import { describe, expect, it } from 'vitest';
import { knowledgeLink, knowledgeSource, knowledgeTitle, progressTexts } from './knowledge.ts';

const item = (overrides: Partial<KnowledgeItem>) =>
  ({ type: 'url', url: null, youtubeUrl: null, fileName: null, ...overrides }) as KnowledgeItem;

describe('knowledgeTitle', () => {
  it("names items by kind: 'YouTube Video', the file name, 'Web URL' or 'Unknown Source'", () => {
    expect(knowledgeTitle(item({ type: 'youtube', youtubeUrl: 'https://youtu.be/x' }))).toBe('YouTube Video');
    expect(knowledgeTitle(item({ type: 'file', fileName: 'notes.pdf' }))).toBe('notes.pdf');
    expect(knowledgeTitle(item({ type: 'url', url: 'https://example.com' }))).toBe('Web URL');
    expect(knowledgeTitle(item({ type: 'file', fileName: null }))).toBe('Unknown Source');
    expect(knowledgeTitle(item({ type: 'other' as KnowledgeItem['type'] }))).toBe('Unknown Source');
  });
});

describe('knowledgeSource and knowledgeLink', () => {
  it('shows where an item came from and links only http(s) addresses', () => {
    const video = item({ type: 'youtube', youtubeUrl: 'https://youtu.be/abc' });
    expect(knowledgeSource(video)).toBe('https://youtu.be/abc');
    expect(knowledgeLink(video)).toBe('https://youtu.be/abc');
    const page = item({ type: 'url', url: 'https://example.com/a' });
    expect(knowledgeLink(page)).toBe('https://example.com/a');
    expect(knowledgeLink(item({ type: 'url', url: 'javascript:alert(1)' }))).toBeNull();
    expect(knowledgeSource({ ...page, source: 'https://example.com/a#top' })).toBe(
      'https://example.com/a#top',
    );
    const file = item({ type: 'file', fileName: 'plan.txt' });
    expect(knowledgeSource(file)).toBe('plan.txt');
    // A file's line is its size (its title is its name); a video's is its real name.
    expect(knowledgeSource({ ...file, fileSize: 1_258_291 })).toBe('1.2 MB');
    expect(knowledgeSource({ ...file, fileSize: 14_336 })).toBe('14 KB');
    expect(knowledgeSource({ ...video, title: 'How to shape a boule' })).toBe('How to shape a boule');
    expect(knowledgeSource({ ...video, title: 'YouTube Video' })).toBe('https://youtu.be/abc');
    // A file opens the creator's own copy.
    expect(knowledgeLink({ ...file, id: 'k 1' })).toBe('/api/knowledge/k%201/file');
  });
});

describe('progressTexts', () => {
  it("reads 'N of M sources ready' and 'N pending' while processing", () => {
    expect(
      progressTexts({ total: 4, active: 1, pending: 3, progressPercentage: 25, isComplete: false }),
    ).toEqual({
      percentage: 25,
      percentageText: '25%',
      readyText: '1 of 4 sources ready',
      badgeText: '3 pending',
      tone: 'warning',
    });
  });

  it("reads 'Complete' when nothing is pending", () => {
    expect(
      progressTexts({ total: 2, active: 2, pending: 0, progressPercentage: 100, isComplete: true }),
    ).toMatchObject({ percentageText: '100%', readyText: '2 of 2 sources ready', badgeText: 'Complete' });
  });

  it("counts failed sources apart: never 'Complete' while one failed", () => {
    expect(
      progressTexts({
        total: 1,
        active: 0,
        pending: 0,
        failed: 1,
        progressPercentage: 100,
        isComplete: true,
      }),
    ).toMatchObject({ readyText: '0 of 1 ready, 1 failed', badgeText: '1 failed', tone: 'danger' });
    expect(
      progressTexts({
        total: 4,
        active: 3,
        pending: 0,
        failed: 1,
        progressPercentage: 100,
        isComplete: true,
      }),
    ).toMatchObject({ readyText: '3 of 4 ready, 1 failed', badgeText: '1 failed' });
    expect(
      progressTexts({
        total: 4,
        active: 2,
        pending: 1,
        failed: 1,
        progressPercentage: 75,
        isComplete: false,
      }),
    ).toMatchObject({ badgeText: '1 pending', tone: 'warning' });
  });

  it('keeps the percentage between 0 and 100', () => {
    expect(
      progressTexts({ total: 1, active: 1, pending: 0, progressPercentage: 140, isComplete: true })
        .percentage,
    ).toBe(100);
  });
});

describe('progress never calls a failed source done (issue 29)', () => {
  it('counts only ready sources in the percentage, beside the failed count', () => {
    const texts = progressTexts({
      total: 4,
      active: 1,
      pending: 0,
      failed: 3,
      progressPercentage: 100,
      isComplete: true,
    });
    expect(texts.percentageText).toBe('25%');
    expect(texts.badgeText).toBe('3 failed');
    expect(texts.tone).toBe('danger');
  });

  it('calls a page by its title once read', () => {
    expect(knowledgeTitle({ type: 'url', fileName: null, title: 'About the bakery' })).toBe(
      'About the bakery',
    );
    expect(knowledgeTitle({ type: 'url', fileName: null, title: null })).toBe('Web URL');
  });
});
