import { describe, expect, it } from 'vitest';
import { EXTERNAL_LINK_PROPS, linkify, safeHref } from './linkify.ts';

describe('announcement links', () => {
  it('turns http and https URLs into links and keeps the rest as text', () => {
    expect(linkify('New video: https://example.com/watch?v=1 and http://a.io/x')).toEqual([
      { kind: 'text', text: 'New video: ' },
      { kind: 'link', text: 'https://example.com/watch?v=1', href: 'https://example.com/watch?v=1' },
      { kind: 'text', text: ' and ' },
      { kind: 'link', text: 'http://a.io/x', href: 'http://a.io/x' },
    ]);
  });

  it('links bare www. addresses over https', () => {
    expect(linkify('see www.example.com today')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', text: 'www.example.com', href: 'https://www.example.com/' },
      { kind: 'text', text: ' today' },
    ]);
  });

  it('leaves sentence punctuation and unmatched brackets outside the link', () => {
    const links = (text: string) => linkify(text).filter((s) => s.kind === 'link');
    expect(links('Go to https://example.com/shop.')[0]?.text).toBe('https://example.com/shop');
    expect(links('(see https://example.com/a)')[0]?.text).toBe('https://example.com/a');
    expect(links('https://en.wikipedia.org/wiki/Foo_(bar), ok')[0]?.text).toBe(
      'https://en.wikipedia.org/wiki/Foo_(bar)',
    );
    expect(linkify('Go to https://example.com/shop.').at(-1)).toEqual({ kind: 'text', text: '.' });
  });

  it('never links other schemes: javascript:, data:, vbscript:, mailto:', () => {
    for (const text of [
      'javascript:alert(1)',
      'click javascript://example.com/%0aalert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox',
      'mailto:a@b.c',
    ]) {
      expect(linkify(text).every((segment) => segment.kind === 'text')).toBe(true);
      expect(
        linkify(text)
          .map((s) => s.text)
          .join(''),
      ).toBe(text);
    }
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('https://example.com')).toBe('https://example.com/');
  });

  it('keeps HTML as plain text, to be rendered as text', () => {
    const segments = linkify('<img src=x onerror=alert(1)> https://ok.example/<b>');
    expect(segments[0]).toEqual({ kind: 'text', text: '<img src=x onerror=alert(1)> ' });
    expect(segments[1]).toMatchObject({ kind: 'link', href: 'https://ok.example/' });
    expect(segments.map((s) => s.text).join('')).toBe('<img src=x onerror=alert(1)> https://ok.example/<b>');
  });

  it('opens links in a new tab without handing over the page or ranking', () => {
    expect(EXTERNAL_LINK_PROPS).toEqual({ target: '_blank', rel: 'noopener noreferrer nofollow' });
  });

  it('gives one text segment for text without links, and nothing for empty text', () => {
    expect(linkify('Hello fans!')).toEqual([{ kind: 'text', text: 'Hello fans!' }]);
    expect(linkify('')).toEqual([]);
  });
});
