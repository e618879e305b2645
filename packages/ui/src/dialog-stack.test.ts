import { describe, expect, it } from 'vitest';
import { closeNewestDialog, openDialogCount, registerOpenDialog } from './dialog-stack.ts';

describe('dialog stack', () => {
  it('closes the newest open dialog, and nothing once all are closed', () => {
    const closed: string[] = [];
    const forgetOuter = registerOpenDialog(() => closed.push('outer'));
    const forgetInner = registerOpenDialog(() => closed.push('inner'));
    expect(closeNewestDialog()).toBe(true);
    expect(closed).toEqual(['inner']);
    forgetInner();
    expect(closeNewestDialog()).toBe(true);
    expect(closed).toEqual(['inner', 'outer']);
    forgetOuter();
    forgetOuter();
    expect(openDialogCount()).toBe(0);
    expect(closeNewestDialog()).toBe(false);
  });
});
