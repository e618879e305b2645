import { describe, expect, it } from 'vitest';
import {
  CACHED_API_READ,
  creatorPhotoToKeep,
  FAN_PAGE_ROUTE,
  isKeptAnswer,
  KEPT_ANSWER_HEADER,
  PUBLIC_CREATOR_READ,
} from './routes.ts';

const origin = 'https://fans.example';

describe('what the service worker handles', () => {
  it('serves the fan page routes and nothing else as pages', () => {
    for (const path of ['/pwa/bea', '/pwa/bea/', '/fanchat-mobile', '/mobile-chat/']) {
      expect(FAN_PAGE_ROUTE.test(path)).toBe(true);
    }
    for (const path of ['/', '/dashboard', '/pwa/bea/manifest.webmanifest', '/api/ask']) {
      expect(FAN_PAGE_ROUTE.test(path)).toBe(false);
    }
  });

  it("keeps the fan's reads: chat log, creator card, manifest, uploaded photos", () => {
    for (const path of [
      '/api/chatlog/fan/mobile_fan_x_1',
      '/api/public/creators/bea',
      '/pwa/bea/manifest.webmanifest',
      '/objects/uploads/a/b',
    ]) {
      expect(CACHED_API_READ.test(path)).toBe(true);
    }
    for (const path of ['/api/chatlog', '/api/ask', '/api/creators/username/bea/messages', '/objects/x']) {
      expect(CACHED_API_READ.test(path)).toBe(false);
    }
    expect(PUBLIC_CREATOR_READ.test('/api/public/creators/bea')).toBe(true);
    expect(PUBLIC_CREATOR_READ.test('/api/chatlog/fan/x')).toBe(false);
  });
});

describe('kept answers', () => {
  it('are told apart from the server by their header', () => {
    expect(isKeptAnswer(new Headers({ [KEPT_ANSWER_HEADER]: '1' }))).toBe(true);
    expect(isKeptAnswer(new Headers({ 'cache-control': 'no-store' }))).toBe(false);
  });
});

describe("the creator's photo kept with their card", () => {
  it('is an upload on our own origin, made absolute', () => {
    // At the avatar's size: the URL the page shows (CreatorAvatar), not the whole upload.
    expect(creatorPhotoToKeep({ profileImageUrl: '/objects/uploads/u/p' }, origin)).toBe(
      `${origin}/objects/uploads/u/p?size=96`,
    );
    expect(creatorPhotoToKeep({ profileImageUrl: `${origin}/objects/uploads/u/p` }, origin)).toBe(
      `${origin}/objects/uploads/u/p?size=96`,
    );
  });

  it('is nothing for another origin, another path, or no photo', () => {
    expect(
      creatorPhotoToKeep({ profileImageUrl: 'https://cdn.example/objects/uploads/u' }, origin),
    ).toBeNull();
    expect(creatorPhotoToKeep({ profileImageUrl: '/api/public/creators/bea' }, origin)).toBeNull();
    expect(creatorPhotoToKeep({ profileImageUrl: null }, origin)).toBeNull();
    expect(creatorPhotoToKeep({ profileImageUrl: '' }, origin)).toBeNull();
    expect(creatorPhotoToKeep(null, origin)).toBeNull();
    expect(creatorPhotoToKeep('text', origin)).toBeNull();
  });
});
