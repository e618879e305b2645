import { describe, expect, it } from 'vitest';
import { readOnlineStatus } from './queries.ts';

describe('readOnlineStatus', () => {
  it('reads the online flag and status text', () => {
    expect(readOnlineStatus({ isOnline: true, statusText: 'Online - Creator responding' })).toEqual({
      isOnline: true,
      statusText: 'Online - Creator responding',
    });
  });

  it('is Offline for anything it cannot read', () => {
    expect(readOnlineStatus(null)).toEqual({ isOnline: false, statusText: '' });
    expect(readOnlineStatus({ isOnline: 'yes' })).toEqual({ isOnline: false, statusText: '' });
  });
});
