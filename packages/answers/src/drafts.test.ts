import { describe, expect, it } from 'vitest';
import { visibleDraft } from './drafts.ts';

describe('an answer draft as the fan sees it', () => {
  it('never shows the gap tag, whole or still being written', () => {
    expect(visibleDraft('Water it [not in knowledge] weekly')).toBe('Water it weekly');
    expect(visibleDraft('Water it [not in kno')).toBe('Water it');
    expect(visibleDraft('Water it [')).toBe('Water it');
    // A bracket that is not the tag stays.
    expect(visibleDraft('See [the guide')).toBe('See [the guide');
    expect(visibleDraft('  Hello ')).toBe('Hello');
  });
});
