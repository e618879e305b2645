import { describe, expect, it } from 'vitest';
import {
  decodeLiveEvent,
  encodeLiveEvent,
  encodeLiveStart,
  isLiveChange,
  isLiveDraft,
  isLiveSync,
  LIVE_CHANGE_KINDS,
  type LiveEvent,
} from './live.ts';
import {
  DRAFT_NOTICE_MAX_BYTES,
  decodeChangeNotice,
  decodeDraftNotice,
  decodeFeedNotice,
  encodeChangeNotice,
  encodeDraftNotice,
  encodeFenceNotice,
  liveChangeSchema,
  liveDraftSchema,
  liveEventSchema,
  liveSyncSchema,
} from './live-schemas.ts';

const FAN = '6f1c2d3e-4a5b-4c6d-8e7f-0123456789ab';
const QUESTION = '0b1c2d3e-4a5b-4c6d-8e7f-0123456789cd';

/** The frame's name and data lines, as an EventSource hands them over. */
function readFrame(frame: string): { id: string; name: string; data: string } {
  expect(frame.endsWith('\n\n')).toBe(true);
  const lines = frame.slice(0, -2).split('\n');
  expect(lines).toHaveLength(3);
  const field = (prefix: string) => {
    const line = lines.find((l) => l.startsWith(prefix));
    if (line === undefined) throw new Error(`no ${prefix} line in ${frame}`);
    return line.slice(prefix.length);
  };
  return { id: field('id: '), name: field('event: '), data: field('data: ') };
}

describe('stream events', () => {
  const events: LiveEvent[] = [
    ...LIVE_CHANGE_KINDS.map((kind): LiveEvent => ({ event: 'change', data: { kind } })),
    { event: 'sync', data: {} },
    { event: 'draft', data: { replyTo: QUESTION, text: 'Water it weekly', done: false } },
    { event: 'draft', data: { replyTo: QUESTION, text: '', done: true } },
    // Line breaks, a would-be frame end and unicode stay inside the one data line.
    {
      event: 'draft',
      data: { replyTo: QUESTION, text: 'One\n\nevent: sync\ndata: {}\r\n— ünïcode 🌱', done: false },
    },
  ];

  it('read back as they were written, by the browsers and by the schemas', () => {
    for (const event of events) {
      const frame = readFrame(encodeLiveEvent(event, '12.34'));
      expect(frame.id).toBe('12.34');
      expect(decodeLiveEvent(frame.name, frame.data)).toEqual(event);
      expect(liveEventSchema.parse({ event: frame.name, data: JSON.parse(frame.data) })).toEqual(event);
    }
  });

  it('an event the browsers cannot read is null, not an error', () => {
    const bad: [string, string][] = [
      ['draft', 'not json'],
      ['draft', ''],
      ['draft', 'null'],
      ['draft', '"text"'],
      ['draft', '[]'],
      ['draft', '{"replyTo":"q","text":"hi"}'],
      ['draft', '{"replyTo":"q","text":5,"done":false}'],
      ['draft', '{"replyTo":null,"text":"hi","done":false}'],
      ['draft', '{"replyTo":"q","text":"hi","done":"false"}'],
      ['change', '{"kind":"everything"}'],
      ['change', '{"kind":"toString"}'],
      ['change', '{}'],
      ['change', '{"kind":1}'],
      ['change', '{'],
      ['sync', '1'],
      ['sync', 'null'],
      ['message', '{"kind":"messages"}'],
      ['', '{}'],
    ];
    for (const [name, data] of bad) expect(decodeLiveEvent(name, data), `${name} ${data}`).toBeNull();
  });

  it('a stream starts with the reconnect delay and its versions, no event', () => {
    expect(encodeLiveStart('3.0.7')).toBe('retry: 3000\nid: 3.0.7\n\n');
    expect(encodeLiveStart('1', 500)).toBe('retry: 500\nid: 1\n\n');
  });

  it('keeps only the fields the protocol names', () => {
    expect(decodeLiveEvent('change', '{"kind":"credits","extra":1}')).toEqual({
      event: 'change',
      data: { kind: 'credits' },
    });
    expect(decodeLiveEvent('sync', '{"why":"missed"}')).toEqual({ event: 'sync', data: {} });
  });
});

describe("the browsers' guards agree with the schemas", () => {
  const samples: unknown[] = [
    null,
    undefined,
    0,
    'messages',
    true,
    [],
    ['messages'],
    {},
    { kind: 'messages' },
    { kind: 'settings', more: true },
    { kind: 'MESSAGES' },
    { kind: '' },
    { kind: null },
    { kind: ['messages'] },
    { replyTo: 'q', text: 't', done: true },
    { replyTo: 'q', text: '', done: false, kind: 'status' },
    { replyTo: '', text: 't', done: false },
    { replyTo: 'q', text: 't' },
    { replyTo: 'q', text: 't', done: 0 },
    { replyTo: 1, text: 't', done: false },
    { replyTo: 'q', text: null, done: false },
    Object.create(null),
    new Date(0),
  ];
  // And random objects built from the fields' names and a few values of every type.
  const values = [undefined, null, '', 'q', 'messages', 'notice', 0, 1, true, false, [], {}];
  let seed = 7;
  const pick = <T>(list: readonly T[]): T => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return list[seed % list.length]!;
  };
  for (let i = 0; i < 500; i++) {
    const sample: Record<string, unknown> = {};
    for (const key of ['kind', 'replyTo', 'text', 'done', 'other']) {
      const value = pick(values);
      if (value !== undefined) sample[key] = value;
    }
    samples.push(sample);
  }

  it('change', () => {
    for (const s of samples)
      expect(isLiveChange(s), JSON.stringify(s)).toBe(liveChangeSchema.safeParse(s).success);
  });
  it('draft', () => {
    for (const s of samples)
      expect(isLiveDraft(s), JSON.stringify(s)).toBe(liveDraftSchema.safeParse(s).success);
  });
  it('sync', () => {
    for (const s of samples)
      expect(isLiveSync(s), JSON.stringify(s)).toBe(liveSyncSchema.safeParse(s).success);
  });
  it('every kind the schema knows, and no other', () => {
    expect([...LIVE_CHANGE_KINDS]).toEqual(liveChangeSchema.shape.kind.options);
  });
});

describe('draft notices (NOTIFY between processes)', () => {
  it('read back as they were sent, colons in the text too', () => {
    for (const notice of [
      { fanId: FAN, replyTo: QUESTION, done: false, text: 'Step 1: water. Step 2: wait' },
      { fanId: FAN, replyTo: QUESTION, done: true, text: '' },
      { fanId: FAN, replyTo: QUESTION, done: false, text: ':::\n' },
    ]) {
      const payload = encodeDraftNotice(notice);
      expect(payload).not.toBeNull();
      expect(decodeDraftNotice(payload!)).toEqual(notice);
      expect(decodeFeedNotice(payload!)).toEqual({ type: 'draft', draft: notice });
    }
  });

  it('keeps the wire format every api process reads', () => {
    expect(encodeDraftNotice({ fanId: FAN, replyTo: QUESTION, done: false, text: 'Hi: there' })).toBe(
      `d:${FAN}:${QUESTION}:0:Hi: there`,
    );
  });

  it('a draft over the NOTIFY limit is not sent; one just under is', () => {
    const head = `d:${FAN}:${QUESTION}:0:`;
    const fits = 'a'.repeat(DRAFT_NOTICE_MAX_BYTES - head.length);
    expect(encodeDraftNotice({ fanId: FAN, replyTo: QUESTION, done: false, text: fits })).toBe(head + fits);
    expect(encodeDraftNotice({ fanId: FAN, replyTo: QUESTION, done: false, text: `${fits}a` })).toBeNull();
    // Bytes, not characters: 'é' is two.
    const wide = 'é'.repeat(Math.ceil((DRAFT_NOTICE_MAX_BYTES - head.length) / 2) + 1);
    expect(wide.length + head.length).toBeLessThan(DRAFT_NOTICE_MAX_BYTES);
    expect(encodeDraftNotice({ fanId: FAN, replyTo: QUESTION, done: false, text: wide })).toBeNull();
    expect(DRAFT_NOTICE_MAX_BYTES).toBeLessThan(8000);
  });

  it('ids that would not read back are not sent', () => {
    expect(encodeDraftNotice({ fanId: 'a:b', replyTo: QUESTION, done: false, text: 'x' })).toBeNull();
    expect(encodeDraftNotice({ fanId: '', replyTo: QUESTION, done: false, text: 'x' })).toBeNull();
  });

  it('a malformed payload is null', () => {
    for (const payload of [
      'd:',
      `d:${FAN}`,
      `d:${FAN}:${QUESTION}`,
      `d:${FAN}:${QUESTION}:2:text`,
      `d:${FAN}:${QUESTION}:true:text`,
      `d::${QUESTION}:0:text`,
      `d:${FAN}::0:text`,
      `x:${FAN}:${QUESTION}:0:text`,
    ]) {
      expect(decodeDraftNotice(payload), payload).toBeNull();
    }
    expect(decodeFeedNotice(`d:${FAN}:${QUESTION}:2:text`)).toBeNull();
  });
});

describe('fence notices (an api process catching up with its own writes)', () => {
  it('read back as sent; a token with anything but letters, digits and _.- is refused', () => {
    expect(decodeFeedNotice(encodeFenceNotice('p1a2b.17'))).toEqual({ type: 'fence', token: 'p1a2b.17' });
    for (const token of ['', 'a:b', 'a b', 'x'.repeat(101), 'é']) {
      expect(() => encodeFenceNotice(token), token).toThrow();
      expect(decodeFeedNotice(`x:${token}`), token).toBeNull();
    }
  });
});

describe('change notices (the database announces them)', () => {
  it('read back as the trigger writes them, with or without a fan', () => {
    // As migration 2026-11-23T11-00_change_feed's note_change writes them.
    const withFan = `c:${FAN}:42:messages:${QUESTION}`;
    expect(decodeChangeNotice(withFan)).toEqual({
      scope: 'c',
      id: FAN,
      version: '42',
      table: 'messages',
      fanId: QUESTION,
    });
    expect(decodeFeedNotice(`s:abc:7:sessions`)).toEqual({
      type: 'change',
      change: { scope: 's', id: 'abc', version: '7', table: 'sessions', fanId: null },
    });
    for (const notice of [
      { scope: 'f', id: FAN, version: '1', table: 'fans', fanId: null },
      { scope: 'p', id: FAN, version: '9007199254740993', table: 'creators', fanId: null },
      { scope: 'c', id: FAN, version: '3', table: 'fans', fanId: QUESTION },
    ] as const) {
      expect(decodeChangeNotice(encodeChangeNotice(notice))).toEqual(notice);
    }
    expect(
      encodeChangeNotice({ scope: 'c', id: FAN, version: '42', table: 'messages', fanId: QUESTION }),
    ).toBe(withFan);
  });

  it('a malformed payload is null', () => {
    for (const payload of [
      '',
      'c',
      `c:${FAN}`,
      `c:${FAN}:42`,
      `x:${FAN}:42:messages`,
      `c:${FAN}:v42:messages`,
      `c:${FAN}:-1:messages`,
      `c::42:messages`,
      `c:${FAN}:42:`,
      `c:${FAN}:42:messages:${QUESTION}:extra`,
    ]) {
      expect(decodeChangeNotice(payload), payload).toBeNull();
      expect(decodeFeedNotice(payload), payload).toBeNull();
    }
  });
});
