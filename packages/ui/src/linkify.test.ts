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
    expect(EXTERNAL_LINK_PROPS).toEqual({ target: '_blank', rel: 'noopener noreferrer nofollow ugc' });
  });

  it('gives one text segment for text without links, and nothing for empty text', () => {
    expect(linkify('Hello fans!')).toEqual([{ kind: 'text', text: 'Hello fans!' }]);
    expect(linkify('')).toEqual([]);
  });
});

describe('linkify, as the dashboard used it', () => {
  it('turns http and https addresses into links and keeps the rest as text', () => {
    expect(linkify('Join at https://example.com/live or http://a.example/b?c=1#d now')).toEqual([
      { kind: 'text', text: 'Join at ' },
      { kind: 'link', text: 'https://example.com/live', href: 'https://example.com/live' },
      { kind: 'text', text: ' or ' },
      { kind: 'link', text: 'http://a.example/b?c=1#d', href: 'http://a.example/b?c=1#d' },
      { kind: 'text', text: ' now' },
    ]);
  });

  it('leaves sentence punctuation after an address outside the link', () => {
    expect(linkify('See https://example.com/a. Then (https://example.com/b), ok!')).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'link', text: 'https://example.com/a', href: 'https://example.com/a' },
      { kind: 'text', text: '. Then (' },
      { kind: 'link', text: 'https://example.com/b', href: 'https://example.com/b' },
      { kind: 'text', text: '), ok!' },
    ]);
  });

  it('keeps balanced brackets that belong to the address', () => {
    const [, link] = linkify('Read https://en.wikipedia.org/wiki/Bread_(food) today');
    expect(link).toEqual({
      kind: 'link',
      text: 'https://en.wikipedia.org/wiki/Bread_(food)',
      href: 'https://en.wikipedia.org/wiki/Bread_(food)',
    });
  });

  it('never links other schemes, so javascript: and data: stay plain text', () => {
    for (const text of [
      'javascript:alert(1)',
      'click javascript://example.com/%0Aalert(1)',
      'data:text/html,<script>alert(1)</script>',
      'ftp://example.com/file',
    ]) {
      expect(linkify(text)).toEqual([{ kind: 'text', text }]);
    }
  });

  it('does not let markup in or around an address become part of a link', () => {
    expect(linkify('<img src=x onerror=alert(1)> https://example.com/"><script>')).toEqual([
      { kind: 'text', text: '<img src=x onerror=alert(1)> ' },
      { kind: 'link', text: 'https://example.com/', href: 'https://example.com/' },
      { kind: 'text', text: '"><script>' },
    ]);
  });

  it('gives plain text without addresses back whole, and nothing for empty text', () => {
    expect(linkify('No links here.')).toEqual([{ kind: 'text', text: 'No links here.' }]);
    expect(linkify('')).toEqual([]);
  });
});

describe('safeHref', () => {
  it('accepts only well-formed http(s) addresses', () => {
    expect(safeHref('https://example.com')).toBe('https://example.com/');
    expect(safeHref('http://')).toBeNull();
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('not a url')).toBeNull();
  });
});
