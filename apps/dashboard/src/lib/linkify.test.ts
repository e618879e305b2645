import { describe, expect, it } from 'vitest';
import { linkify, safeHref } from './linkify.ts';

describe('linkify', () => {
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
