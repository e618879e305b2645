import { encodeLiveEvent, type LiveDraft, type LiveEvent } from '@fanpilot/contracts';
import { describe, expect, it } from 'vitest';
import { listenToFanEvents } from './useFanLive.ts';

/** What an EventSource dispatches for one frame the api wrote. */
function dispatchFrame(source: EventTarget, frame: string) {
  const name = /^event: (.*)$/m.exec(frame)![1]!;
  const data = /^data: (.*)$/m.exec(frame)![1]!;
  source.dispatchEvent(new MessageEvent(name, { data }));
}

function listening() {
  const source = new EventTarget();
  const seen = { changes: 0, drafts: [] as LiveDraft[] };
  const stop = listenToFanEvents(source, {
    onChange: () => seen.changes++,
    onDraft: (draft) => seen.drafts.push(draft),
  });
  return { source, seen, stop };
}

describe("the fan chat's event stream", () => {
  it('re-reads on a change or a sync and shows a draft, as the api writes them', () => {
    const { source, seen } = listening();
    const events: LiveEvent[] = [
      { event: 'change', data: { kind: 'messages' } },
      { event: 'sync', data: {} },
      { event: 'draft', data: { replyTo: 'q1', text: 'Water it\nweekly', done: false } },
    ];
    for (const event of events) dispatchFrame(source, encodeLiveEvent(event, '1.2'));
    expect(seen.changes).toBe(2);
    expect(seen.drafts).toEqual([{ replyTo: 'q1', text: 'Water it\nweekly', done: false }]);
  });

  it('skips an event it cannot read, and goes on with the next', () => {
    const { source, seen } = listening();
    for (const [name, data] of [
      ['draft', 'not json'],
      ['draft', '{"replyTo":"q1","text":"hi"}'],
      ['draft', '{"replyTo":"q1","text":7,"done":false}'],
      ['draft', 'null'],
      ['change', '{"kind":"everything"}'],
      ['change', '{'],
      ['sync', '42'],
    ] as const) {
      expect(() => source.dispatchEvent(new MessageEvent(name, { data }))).not.toThrow();
    }
    // Not a string at all.
    source.dispatchEvent(new MessageEvent('draft', { data: { replyTo: 'q1', text: 'hi', done: false } }));
    expect(seen).toEqual({ changes: 0, drafts: [] });
    dispatchFrame(
      source,
      encodeLiveEvent({ event: 'draft', data: { replyTo: 'q1', text: '', done: true } }, '3'),
    );
    expect(seen.drafts).toEqual([{ replyTo: 'q1', text: '', done: true }]);
  });

  it('hears nothing once unsubscribed', () => {
    const { source, seen, stop } = listening();
    stop();
    dispatchFrame(source, encodeLiveEvent({ event: 'change', data: { kind: 'status' } }, '1'));
    expect(seen.changes).toBe(0);
  });
});
