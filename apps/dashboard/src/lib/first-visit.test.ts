import { beforeEach, describe, expect, it } from 'vitest';
import { firstDashboardVisit, resetFirstVisitsForPageLoad } from './first-visit.ts';

class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(k: string) {
    return this.items.get(k) ?? null;
  }
  key(i: number) {
    return [...this.items.keys()][i] ?? null;
  }
  removeItem(k: string) {
    this.items.delete(k);
  }
  setItem(k: string, v: string) {
    this.items.set(k, v);
  }
}

describe('firstDashboardVisit', () => {
  beforeEach(() => resetFirstVisitsForPageLoad());

  it('stays a first visit for every read in the page load that made it (a remounted overview)', () => {
    const storage = new MemoryStorage();
    expect(firstDashboardVisit('ana', storage)).toBe(true);
    expect(firstDashboardVisit('ana', storage)).toBe(true);
    expect(firstDashboardVisit('ana', storage)).toBe(true);
  });

  it('reads as a return on the next page load, and per creator', () => {
    const storage = new MemoryStorage();
    expect(firstDashboardVisit('ana', storage)).toBe(true);
    resetFirstVisitsForPageLoad();
    expect(firstDashboardVisit('ana', storage)).toBe(false);
    expect(firstDashboardVisit('ben', storage)).toBe(true);
  });

  it('reads as a return when storage refuses', () => {
    const refusing = new MemoryStorage();
    refusing.setItem = () => {
      throw new Error('QuotaExceededError');
    };
    expect(firstDashboardVisit('ana', refusing)).toBe(false);
    expect(firstDashboardVisit('cy', undefined)).toBe(false);
  });
});
