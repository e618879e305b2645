import { describe, expect, it } from 'vitest';
import { whichBanners } from './banners.ts';

describe('the notices under the fan app header (record 0073)', () => {
  const none = { offline: false, pushOffer: false, personal: false, announcement: false };

  it('shows every piece of information, stacked, with the notification offer below it', () => {
    expect(whichBanners({ ...none, pushOffer: true, personal: true, announcement: true })).toEqual([
      'personal',
      'announcement',
      'push',
    ]);
    expect(whichBanners({ ...none, pushOffer: true, announcement: true })).toEqual(['announcement', 'push']);
    expect(whichBanners({ ...none, pushOffer: true })).toEqual(['push']);
    expect(whichBanners(none)).toEqual([]);
  });

  it('offline: the information stays, the offer waits (it cannot be taken up)', () => {
    expect(whichBanners({ offline: true, pushOffer: true, personal: true, announcement: true })).toEqual([
      'offline',
      'personal',
      'announcement',
    ]);
  });
});
