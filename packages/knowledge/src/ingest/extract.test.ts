import { threadId } from 'node:worker_threads';
import {
  articlePage,
  encryptedWordDoc,
  makeDocx,
  makeDocxBomb,
  makePdf,
  makePdfBomb,
  makeZip,
  WORD_DOC_FACT,
  wordDocFixture,
} from '@fanpilot/testkit';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import { chunkTranscript } from './chunk.ts';
import { IngestError } from './errors.ts';
import { detectKnowledgeFile, type KnowledgeFileKind } from './files.ts';
import { runParseTask } from './parse-task.ts';
import { createParserPool, tooLargeReason, tooSlowReason } from './pool.ts';

const chunking = { chunkSize: 400, chunkOverlap: 40 };
const pool = createParserPool({ size: 2, timeoutMs: 30_000, memoryMb: 256 });
afterAll(() => pool.close());

const parse = (fileKind: KnowledgeFileKind, bytes: Uint8Array) =>
  pool.run({ kind: 'file', fileKind, bytes, base: { type: 'file' }, chunking });

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(
    () => new Error('expected a failure'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(IngestError);
  return (err as IngestError).reason;
}

describe('files by content', () => {
  it('knows each kind by its content', async () => {
    expect(await detectKnowledgeFile(makePdf([['x']]), 'a.PDF')).toBe('pdf');
    expect(await detectKnowledgeFile(makeDocx(['x']), 'a.docx')).toBe('docx');
    expect(await detectKnowledgeFile(wordDocFixture(), 'a.doc')).toBe('doc');
    expect(await detectKnowledgeFile(Buffer.from('plain words'), 'a.txt')).toBe('txt');
  });

  it.each([
    [
      'a PNG named .pdf',
      Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
      'photo.pdf',
      /not a real PDF/,
    ],
    ['a PDF named .docx', makePdf([['x']]), 'notes.docx', /not a real DOCX/],
    [
      'a zip that is not a document named .docx',
      makeZip([{ name: 'a.txt', data: Buffer.from('x') }]),
      'a.docx',
      /not a real DOCX/,
    ],
    ['a PDF named .txt', makePdf([['x']]), 'notes.txt', /not a real TXT/],
    ['binary bytes named .txt', Buffer.from([1, 2, 3, 0, 0, 7, 8, 9, 0, 1]), 'notes.txt', null],
    ['an empty file', Buffer.alloc(0), 'empty.pdf', /empty/],
    ['an unsupported extension', Buffer.from('x'), 'tool.exe', /Only PDF, TXT, DOC and DOCX/],
  ])('refuses %s', async (_label, bytes, name, pattern) => {
    if (pattern) expect(await reasonOf(detectKnowledgeFile(bytes, name))).toMatch(pattern);
    else
      expect(await reasonOf(parse(await detectKnowledgeFile(bytes, name), bytes))).toMatch(/not plain text/);
  });
});

describe('extraction in parser threads', () => {
  it('reads a PDF page by page and keeps the page numbers', async () => {
    const pdf = makePdf(
      [
        ['Chapter one: warming up.', 'Jumping jacks for two minutes.'],
        ['Chapter two: the planted fact.', 'The coach drinks exactly 3 espressos a day.'],
      ],
      { title: 'Coaching Handbook' },
    );
    const result = await parse('pdf', pdf);
    expect(result.pages).toBe(2);
    expect(result.title).toBe('Coaching Handbook');
    const fact = result.chunks.find((c) => c.content.includes('3 espressos'));
    expect(fact?.metadata).toMatchObject({ page: 2, type: 'file' });
  });

  it('refuses a password-protected PDF and a PDF without text', async () => {
    expect(await reasonOf(parse('pdf', makePdf([['secret']], { encrypt: true })))).toMatch(
      /password-protected/,
    );
    expect(await reasonOf(parse('pdf', makePdf([[]])))).toMatch(/no text/);
  });

  it('reads DOCX and legacy DOC', async () => {
    const docx = await parse('docx', makeDocx(['Intro paragraph.', 'Protein: 1.6 grams per kilogram.']));
    expect(docx.chunks.map((c) => c.content).join('\n')).toContain('1.6 grams per kilogram');
    const doc = await parse('doc', wordDocFixture());
    expect(doc.chunks.map((c) => c.content).join('\n')).toContain(WORD_DOC_FACT);
  });

  it('refuses an encrypted DOC, an empty DOCX and decompression bombs', async () => {
    expect(await reasonOf(parse('doc', encryptedWordDoc()))).toMatch(/password-protected/);
    expect(await reasonOf(parse('docx', makeDocx([])))).toMatch(/empty/);
    expect(await reasonOf(parse('docx', makeDocxBomb(150)))).toMatch(/compression bomb/);
    // An archive that lies about its sizes gets past the directory check and is caught while inflating.
    expect(await reasonOf(parse('docx', makeDocxBomb(150, { lie: true })))).toMatch(/compression bomb/);
  });

  it.each([
    ['UTF-8', Buffer.from('Café au lait, crème brûlée, naïve façade. '.repeat(5), 'utf8')],
    [
      'UTF-8 with BOM',
      Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from('Café au lait, crème brûlée, naïve façade. '.repeat(5)),
      ]),
    ],
    [
      'UTF-16LE with BOM',
      Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        iconv.encode('Café au lait, crème brûlée, naïve façade. '.repeat(5), 'utf-16le'),
      ]),
    ],
    [
      'windows-1252',
      iconv.encode('Café au lait, crème brûlée, naïve façade, déjà vu. '.repeat(8), 'windows-1252'),
    ],
  ])('reads TXT in %s', async (_label, bytes) => {
    const result = await parse('txt', bytes);
    expect(result.chunks[0]?.content).toContain('Café au lait, crème brûlée');
  });

  it('reads Shift_JIS text', async () => {
    const text = '東京で毎朝ランニングをしています。健康のために野菜を食べましょう。'.repeat(6);
    const result = await parse('txt', iconv.encode(text, 'Shift_JIS'));
    expect(result.chunks.map((c) => c.content).join('')).toContain('毎朝ランニング');
  });

  it('takes the article of a web page, not its menus and footer', async () => {
    const html = articlePage('Mobility Guide', [
      'Hip mobility matters for every lifter who wants to squat deep without pain or compensation.',
      'Spend ten minutes on the ninety-ninety stretch before each session, breathing slowly throughout.',
      'The planted fact: our studio keeps 14 kettlebells in the back room for members to borrow.',
    ]);
    const result = await pool.run({
      kind: 'html',
      bytes: Buffer.from(html),
      contentType: 'text/html; charset=utf-8',
      url: 'http://site.test/mobility',
      base: { type: 'url' },
      chunking,
    });
    const text = result.chunks.map((c) => c.content).join('\n');
    expect(result.title).toBe('Mobility Guide');
    expect(text).toContain('14 kettlebells');
    expect(text).not.toContain('Copyright footer');
    expect(text).not.toContain('Shop menu');
    expect(result.chunks[0]?.metadata).toMatchObject({
      url: 'http://site.test/mobility',
      title: 'Mobility Guide',
    });
  });

  it('parses in a thread of its own, with the same result as on the calling thread', async () => {
    const task = {
      kind: 'file' as const,
      fileKind: 'pdf' as const,
      bytes: makePdf(
        Array.from({ length: 250 }, (_, i) => [
          `Page ${i + 1}`,
          ...Array.from(
            { length: 12 },
            (_, l) => `Line ${l} of page ${i + 1}: lorem ipsum dolor sit amet, consectetur.`,
          ),
        ]),
        { title: 'Long Handbook' },
      ),
      base: { type: 'file' },
      chunking,
    };
    const threaded = await pool.run(task);
    const here = await runParseTask(task);
    expect(threaded.threadId).not.toBe(threadId);
    expect(here.threadId).toBe(threadId);
    // More chunks than one message carries: they come back in batches, in order, all of them.
    expect(threaded.chunks.length).toBeGreaterThan(400);
    expect({ ...threaded, threadId: 0 }).toEqual({ ...here, threadId: 0 });
    const docx = { ...task, fileKind: 'docx' as const, bytes: makeDocx(['One paragraph.', 'Another one.']) };
    expect({ ...(await pool.run(docx)), threadId: 0 }).toEqual({
      ...(await runParseTask(docx)),
      threadId: 0,
    });
  });
});

describe('a parser thread that runs out of memory or time', () => {
  it('fails the file with a reason a creator reads, and the next file is parsed by a fresh thread', async () => {
    const small = createParserPool({ size: 1, timeoutMs: 60_000, memoryMb: 64 });
    try {
      const bomb = await makePdfBomb(300);
      // 300 MB of text operators in about 1 MB.
      expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
      const reason = await reasonOf(
        small.run({ kind: 'file', fileKind: 'pdf', bytes: bomb, base: {}, chunking }),
      );
      expect(reason).toBe(tooLargeReason(64));
      expect(reason).toBe('This file is too large or complex to read (it needed more than 64 MB).');
      const next = await small.run({
        kind: 'file',
        fileKind: 'pdf',
        bytes: makePdf([['Still here after the bomb.']]),
        base: {},
        chunking,
      });
      expect(next.chunks[0]?.content).toContain('Still here');
    } finally {
      await small.close();
    }
  });

  it('fails a file whose parsing takes longer than the budget', async () => {
    const hasty = createParserPool({ size: 1, timeoutMs: 150, memoryMb: 256 });
    try {
      const err = await hasty
        .run({ kind: 'file', fileKind: 'pdf', bytes: await makePdfBomb(100), base: {}, chunking })
        .then(
          () => null,
          (e: unknown) => e as IngestError,
        );
      expect(err).toBeInstanceOf(IngestError);
      expect(err?.permanent).toBe(true);
      expect(err?.reason).toBe(tooSlowReason(150));
      expect(err?.reason).toMatch(/took too long to read/);
    } finally {
      await hasty.close();
    }
  });
});

describe('transcript chunks', () => {
  it('keep the moment each chunk starts, with a link to it', () => {
    const segments = Array.from({ length: 40 }, (_, i) => ({
      text: `Sentence number ${i} about squats and breathing.`,
      start: i * 4.5,
      duration: 4.5,
    }));
    const chunks = chunkTranscript(segments, { videoId: 'dQw4w9WgXcQ', type: 'youtube' }, chunking);
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) {
      expect(c.content.length).toBeLessThanOrEqual(chunking.chunkSize + 60);
      expect(c.metadata.timestampUrl).toBe(
        `https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=${c.metadata.start}s`,
      );
    }
    expect(chunks[0]?.metadata.start).toBe(0);
    expect(Number(chunks[1]?.metadata.start)).toBeGreaterThan(0);
  });
});
