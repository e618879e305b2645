/// <reference path="../types.d.ts" />
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { IngestError, permanent } from './errors.ts';
import type { KnowledgeFileKind } from './files.ts';
import { decodePlainText, decodeText, tidy } from './text.ts';

/** A run of text with where it sits in its source (a page number, a URL). */
export interface Section {
  text: string;
  metadata: Record<string, unknown>;
}

export interface Extracted {
  title: string | null;
  sections: Section[];
  /** Pages (PDF), documents or web pages read: the unit the benchmark counts. */
  pages: number;
  /** A web page's links to pages of its own site (absolute, without #fragment), in page order. */
  links?: string[];
}

/** The page's links to its own origin: absolute http(s) addresses without fragments, each once. */
interface LinkElement {
  getAttribute(name: string): string | null;
}

export function sameSiteLinks(
  document: { querySelectorAll: (s: string) => Iterable<LinkElement> },
  url: string,
): string[] {
  const origin = new URL(url).origin;
  const out = new Set<string>();
  for (const a of document.querySelectorAll('a[href]')) {
    const href = a.getAttribute('href')?.trim();
    if (!href || /^(mailto|tel|javascript|data):/i.test(href)) continue;
    try {
      const target = new URL(href, url);
      target.hash = '';
      if (target.origin === origin && /^https?:$/.test(target.protocol)) out.add(target.href);
    } catch {
      // Not an address.
    }
    if (out.size >= 500) break;
  }
  return [...out];
}

/** Limits on what an archive (DOCX) may expand to. */
export const ZIP_LIMITS = { maxUncompressedBytes: 100 * 1024 * 1024, maxEntries: 5_000, maxRatio: 200 };

const nonEmpty = (sections: Section[], what: string): Section[] => {
  const kept = sections.filter((s) => s.text.trim().length > 0);
  if (kept.length === 0) throw permanent(what);
  return kept;
};

// The document parsers (pdf.js with its canvas binding, mammoth, word-extractor) are loaded when a
// file of their kind is first read: a process that never parses one (an api beside its workers)
// does not hold their code (issue 39: the api's memory at rest).

export async function extractPdf(bytes: Uint8Array): Promise<Extracted> {
  const { PasswordException, PDFParse } = await import('pdf-parse');
  const parser = new PDFParse({ data: bytes });
  try {
    const result = await parser.getText();
    let title: string | null = null;
    try {
      const info = await parser.getInfo();
      const t = (info.info as { Title?: unknown } | undefined)?.Title;
      title = typeof t === 'string' && t.trim() ? t.trim() : null;
    } catch {
      title = null;
    }
    const sections = result.pages.map((p) => ({ text: tidy(p.text), metadata: { page: p.num } }));
    return {
      title,
      sections: nonEmpty(sections, 'This PDF has no text to read (it may hold only scanned images).'),
      pages: result.total || result.pages.length,
    };
  } catch (err) {
    if (err instanceof IngestError) throw err;
    if (err instanceof PasswordException || (err as Error)?.name === 'PasswordException') {
      throw permanent('This PDF is password-protected. Remove the password and upload it again.', err);
    }
    throw permanent('This PDF could not be read; it may be damaged.', err);
  } finally {
    await parser.destroy().catch(() => {});
  }
}

/**
 * Reads a ZIP's central directory and refuses archives that would expand far beyond their size:
 * the declared sizes are checked before anything is inflated (the parser thread's heap limit
 * catches archives that lie about them).
 */
export function checkZipBomb(bytes: Uint8Array, limits = ZIP_LIMITS): void {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const from = Math.max(0, buf.length - 65_557);
  let eocd = -1;
  for (let i = buf.length - 22; i >= from; i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw permanent('This document could not be read; it may be damaged.');
  const entries = buf.readUInt16LE(eocd + 10);
  const cdOffset = buf.readUInt32LE(eocd + 16);
  const bomb = () =>
    permanent('This document expands to far more data than it holds (a compression bomb) and was refused.');
  if (entries === 0xffff || cdOffset === 0xffffffff) throw bomb();
  if (entries > limits.maxEntries) throw bomb();
  let total = 0;
  let at = cdOffset;
  for (let n = 0; n < entries; n++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== 0x02014b50) {
      throw permanent('This document could not be read; it may be damaged.');
    }
    const uncompressed = buf.readUInt32LE(at + 24);
    if (uncompressed === 0xffffffff) throw bomb();
    total += uncompressed;
    at += 46 + buf.readUInt16LE(at + 28) + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
  }
  if (total > limits.maxUncompressedBytes) throw bomb();
  if (total > 10 * 1024 * 1024 && total / Math.max(1, buf.length) > limits.maxRatio) throw bomb();
}

export async function extractDocx(bytes: Uint8Array): Promise<Extracted> {
  checkZipBomb(bytes);
  const { default: mammoth } = await import('mammoth');
  let text: string;
  try {
    const result = await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
    text = result.value;
  } catch (err) {
    if (/size mismatch/i.test(String((err as Error)?.message))) {
      // The archive's declared sizes lie: the shape of a decompression bomb.
      throw permanent(
        'This document expands to far more data than it holds (a compression bomb) and was refused.',
        err,
      );
    }
    throw permanent('This DOCX document could not be read; it may be damaged.', err);
  }
  return {
    title: null,
    sections: nonEmpty([{ text: tidy(text), metadata: {} }], 'The document is empty.'),
    pages: 1,
  };
}

/** The Word 97 FIB's fEncrypted flag, found at the start of the WordDocument stream. */
function isEncryptedWord97(bytes: Uint8Array): boolean {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The stream starts on a sector or, when small, a 64-byte mini-sector: scan those boundaries.
  for (let at = 512; at + 12 <= buf.length; at += 64) {
    if (buf.readUInt16LE(at) === 0xa5ec && buf.readUInt16LE(at + 2) >= 0x65) {
      return (buf.readUInt16LE(at + 0x0a) & 0x0100) !== 0;
    }
  }
  return false;
}

export async function extractDoc(bytes: Uint8Array): Promise<Extracted> {
  if (isEncryptedWord97(bytes)) {
    throw permanent('This document is password-protected. Remove the password and upload it again.');
  }
  const { default: WordExtractor } = await import('word-extractor');
  let text: string;
  try {
    const doc = await new WordExtractor().extract(Buffer.from(bytes));
    text = doc.getBody();
  } catch (err) {
    throw permanent('This DOC document could not be read; it may be damaged.', err);
  }
  return {
    title: null,
    sections: nonEmpty([{ text: tidy(text), metadata: {} }], 'The document is empty.'),
    pages: 1,
  };
}

export function extractTxt(bytes: Uint8Array): Extracted {
  const text = tidy(decodePlainText(bytes));
  return { title: null, sections: nonEmpty([{ text, metadata: {} }], 'The file is empty.'), pages: 1 };
}

export async function extractFile(kind: KnowledgeFileKind, bytes: Uint8Array): Promise<Extracted> {
  switch (kind) {
    case 'pdf':
      return extractPdf(bytes);
    case 'docx':
      return extractDocx(bytes);
    case 'doc':
      return extractDoc(bytes);
    case 'txt':
      return extractTxt(bytes);
  }
}

const BLOCK =
  /<(?:p|div|h[1-6]|li|br|tr|section|article|blockquote|pre|ul|ol|table|header|footer|figure)\b/gi;

function charsetOf(contentType: string, html: string): string | null {
  const header = /charset=["']?([\w-]+)/i.exec(contentType)?.[1];
  if (header) return header;
  return /<meta[^>]+charset=["']?([\w-]+)/i.exec(html.slice(0, 4096))?.[1] ?? null;
}

/** The article text of a page (Readability over a linkedom DOM), not its menus and footers. */
export function extractHtml(bytes: Uint8Array, contentType: string, url: string): Extracted {
  const ascii = Buffer.from(bytes.subarray(0, 4096)).toString('latin1');
  const html = decodeText(bytes, charsetOf(contentType, ascii));
  const { document } = parseHTML(html);
  const pageTitle = document.querySelector('title')?.textContent?.trim() || null;
  // Before Readability, which rewrites the document.
  const links = sameSiteLinks(document as unknown as Parameters<typeof sameSiteLinks>[0], url);
  let title = pageTitle;
  let text = '';
  try {
    const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0], {
      charThreshold: 100,
    }).parse();
    if (article?.content) {
      const { document: body } = parseHTML(
        `<!doctype html><html><body>${article.content.replace(BLOCK, '\n\n$&')}</body></html>`,
      );
      text = body.body?.textContent ?? '';
      title = article.title?.trim() || pageTitle;
    }
  } catch {
    text = '';
  }
  if (!tidy(text)) {
    // Readability found no article: fall back to the visible text without scripts and navigation.
    const { document: raw } = parseHTML(html.replace(BLOCK, '\n\n$&'));
    for (const el of raw.querySelectorAll('script, style, noscript, nav, header, footer, aside, form, svg')) {
      el.remove();
    }
    text = raw.body?.textContent ?? '';
  }
  return {
    title,
    sections: nonEmpty(
      [{ text: tidy(text), metadata: { url } }],
      'The page has no readable text (it may need JavaScript to show its content).',
    ),
    pages: 1,
    links,
  };
}

export const looksLikePdf = (bytes: Uint8Array) =>
  Buffer.from(bytes.subarray(0, 1024)).toString('latin1').includes('%PDF-');
