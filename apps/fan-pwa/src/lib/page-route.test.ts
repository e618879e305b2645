import { describe, expect, it } from 'vitest';
import { fanPageFor } from './page-route.ts';

describe('fanPageFor', () => {
  it('reads the creator from /pwa/{username}, with or without a trailing slash, decoded', () => {
    expect(fanPageFor('/pwa/maya', '')).toEqual({ kind: 'chat', username: 'maya' });
    expect(fanPageFor('/pwa/maya/', '?x=1')).toEqual({ kind: 'chat', username: 'maya' });
    expect(fanPageFor('/pwa/ma%20ya', '')).toEqual({ kind: 'chat', username: 'ma ya' });
    expect(fanPageFor('/pwa/%E0%A4%A', '')).toEqual({ kind: 'chat', username: '%E0%A4%A' });
  });

  it('reads ?creator= on the mobile chat pages, else the default creator, else no creator', () => {
    expect(fanPageFor('/fanchat-mobile', '?creator=maya')).toEqual({ kind: 'chat', username: 'maya' });
    expect(fanPageFor('/mobile-chat/', '?creator=%20maya%20')).toEqual({ kind: 'chat', username: 'maya' });
    expect(fanPageFor('/mobile-chat', '', 'house')).toEqual({ kind: 'chat', username: 'house' });
    expect(fanPageFor('/fanchat-mobile', '?creator=')).toEqual({ kind: 'noCreator' });
  });

  it('is not found anywhere else', () => {
    for (const path of ['/', '/pwa', '/pwa/', '/pwa/a/b', '/fanchat-mobile/x', '/other']) {
      expect(fanPageFor(path, '')).toEqual({ kind: 'notFound' });
    }
  });
});
