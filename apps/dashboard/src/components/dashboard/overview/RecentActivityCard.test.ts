import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { RecentActivityCard } from './RecentActivityCard.tsx';

describe('RecentActivityCard', () => {
  it('sizes to its content in the overview grid instead of stretching to the row height', () => {
    const html = renderToStaticMarkup(createElement(RecentActivityCard, { messages: [] }));
    const sectionClass = html.match(/^<section[^>]*class="([^"]*)"/)?.[1] ?? '';
    expect(sectionClass.split(' ')).toContain('self-start');
    expect(html).toContain('No recent activity');
  });
});
