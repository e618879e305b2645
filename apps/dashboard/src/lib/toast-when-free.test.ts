import { dismissToast, getToastSnapshot, toast } from '@fanpilot/ui';
import { describe, expect, it } from 'vitest';
import { toastWhenFree } from './toast-when-free.ts';

describe('toastWhenFree', () => {
  it('waits for the toast on screen to go, then shows; shows at once when none is open', () => {
    const id = toast({ title: 'Chatbot settings updated successfully!' });
    toastWhenFree({ title: 'Knowledge ready: Sourdough starter care' });
    expect(getToastSnapshot()?.title).toBe('Chatbot settings updated successfully!');
    dismissToast(id);
    expect(getToastSnapshot()).toMatchObject({
      title: 'Knowledge ready: Sourdough starter care',
      open: true,
    });
    dismissToast();
    toastWhenFree({ title: 'Knowledge ready: Prices' });
    expect(getToastSnapshot()).toMatchObject({ title: 'Knowledge ready: Prices', open: true });
  });
});
