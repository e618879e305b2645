import { describe, expect, it } from 'vitest';
import { dismissToast, getToastSnapshot, subscribeToasts, toast } from './toast-store.ts';

describe('toast store', () => {
  it('keeps only the newest toast: one toast at a time', () => {
    toast({ title: 'First' });
    const second = toast({ title: 'Second', variant: 'error' });
    expect(getToastSnapshot()).toMatchObject({ id: second, title: 'Second', variant: 'error', open: true });
  });

  it('closes the current toast, but not when a newer one replaced it', () => {
    const old = toast({ title: 'Old' });
    const fresh = toast({ title: 'Fresh' });
    dismissToast(old);
    expect(getToastSnapshot()).toMatchObject({ id: fresh, open: true });
    dismissToast(fresh);
    expect(getToastSnapshot()).toMatchObject({ id: fresh, open: false });
  });

  it('tells subscribers about every change until they unsubscribe', () => {
    let calls = 0;
    const unsubscribe = subscribeToasts(() => {
      calls++;
    });
    toast({ title: 'One' });
    unsubscribe();
    toast({ title: 'Two' });
    expect(calls).toBe(1);
  });
});
