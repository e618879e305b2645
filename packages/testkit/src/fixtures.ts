import { readFileSync } from 'node:fs';
import { crc32, deflateRawSync } from 'node:zlib';

/** Generated knowledge fixtures for tests and the benchmark: real PDF, DOCX, DOC and TXT bytes. */

const pdfEscape = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, '?');

/**
 * A real PDF: one page per entry, each line drawn with Helvetica. `encrypt` adds a standard security
 * handler whose user password is not empty, so readers ask for a password.
 */
export function makePdf(pages: string[][], options: { title?: string; encrypt?: boolean } = {}): Buffer {
  const objects: string[] = [];
  const add = (body: string) => {
    objects.push(body);
    return objects.length;
  };
  const catalog = add('');
  const pagesObj = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const kids: number[] = [];
  for (const lines of pages) {
    const ops = ['BT', '/F1 11 Tf', '14 TL', '56 760 Td'];
    for (const line of lines) ops.push(`(${pdfEscape(line)}) Tj T*`);
    ops.push('ET');
    const stream = ops.join('\n');
    const content = add(`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`);
    kids.push(
      add(
        `<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`,
      ),
    );
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`;
  objects[pagesObj - 1] =
    `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  const info = options.title ? add(`<< /Title (${pdfEscape(options.title)}) >>`) : 0;
  const encrypt = options.encrypt
    ? add(`<< /Filter /Standard /V 1 /R 2 /O <${'4f'.repeat(32)}> /U <${'a5'.repeat(32)}> /P -44 >>`)
    : 0;
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  const id = '<0123456789abcdef0123456789abcdef>';
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R${info ? ` /Info ${info} 0 R` : ''}${
    encrypt ? ` /Encrypt ${encrypt} 0 R /ID [${id} ${id}]` : ''
  } >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

export interface ZipEntry {
  name: string;
  data: Buffer;
  /** Claimed uncompressed size, to build archives that lie (default: the true size). */
  declaredSize?: number;
}

/** A ZIP archive (deflate), enough for OOXML. */
export function makeZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const compressed = deflateRawSync(entry.data);
    const crc = crc32(entry.data);
    const size = entry.declaredSize ?? entry.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, compressed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + compressed.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const docxParts = (documentXml: Buffer | string, declaredSize?: number): ZipEntry[] => [
  {
    name: '[Content_Types].xml',
    data: Buffer.from(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
  },
  {
    name: '_rels/.rels',
    data: Buffer.from(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
  },
  {
    name: 'word/document.xml',
    data: Buffer.isBuffer(documentXml) ? documentXml : Buffer.from(documentXml),
    ...(declaredSize === undefined ? {} : { declaredSize }),
  },
];

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/** A real DOCX with one paragraph per entry. */
export function makeDocx(paragraphs: string[]): Buffer {
  const body = paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${xmlEscape(p)}</w:t></w:r></w:p>`);
  return makeZip(
    docxParts(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}"><w:body>${body.join('')}</w:body></w:document>`,
    ),
  );
}

/** A DOCX whose document part inflates to `megabytes` MB of blanks: a decompression bomb. */
export function makeDocxBomb(megabytes = 200, options: { lie?: boolean } = {}): Buffer {
  const head = Buffer.from(`<?xml version="1.0"?><w:document xmlns:w="${W}"><w:body><w:p><w:r><w:t>`);
  const tail = Buffer.from('</w:t></w:r></w:p></w:body></w:document>');
  const xml = Buffer.concat([head, Buffer.alloc(megabytes * 1024 * 1024, 0x20), tail]);
  return makeZip(docxParts(xml, options.lie ? 4096 : undefined));
}

/** The committed Word 97 (.doc) fixture, made once with LibreOffice (see fixtures/README.md). */
export function wordDocFixture(): Buffer {
  return readFileSync(new URL('../fixtures/planted-fact.doc', import.meta.url));
}
/** The text the .doc fixture holds. */
export const WORD_DOC_FACT = 'The secret ingredient of the Fanpilot legacy cake is cardamom.';

/** A .doc whose FIB says it is encrypted (the fixture with the fEncrypted flag set). */
export function encryptedWordDoc(): Buffer {
  const buf = Buffer.from(wordDocFixture());
  for (let at = 512; at + 12 <= buf.length; at += 64) {
    if (buf.readUInt16LE(at) === 0xa5ec && buf.readUInt16LE(at + 2) >= 0x65) {
      buf.writeUInt16LE(buf.readUInt16LE(at + 0x0a) | 0x0100, at + 0x0a);
      return buf;
    }
  }
  throw new Error('No FIB found in the .doc fixture');
}

/**
 * A PDF bomb: a few KB to a few MB on disk, one page whose content stream (FlateDecode) inflates to
 * `megabytes` MB of text-showing operators. A reader that decodes and extracts it needs memory far
 * beyond its size: a parser thread's memory cap must stop it.
 */
export async function makePdfBomb(megabytes = 300): Promise<Buffer> {
  const { createDeflate } = await import('node:zlib');
  const line = Buffer.from('BT /F1 11 Tf 56 760 Td (All work and no play makes a dull PDF bomb) Tj ET\n');
  const block = Buffer.alloc(1024 * 1024 - ((1024 * 1024) % line.length));
  for (let at = 0; at < block.length; at += line.length) line.copy(block, at);
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (b: Buffer) => parts.push(b));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  for (let i = 0; i < megabytes; i++) {
    if (!deflate.write(block)) await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end();
  await done;
  const stream = Buffer.concat(parts);
  const chunks: Buffer[] = [];
  const offsets: number[] = [];
  let size = 0;
  const push = (b: Buffer | string) => {
    const buf = typeof b === 'string' ? Buffer.from(b, 'latin1') : b;
    chunks.push(buf);
    size += buf.length;
  };
  const obj = (n: number, ...body: (Buffer | string)[]) => {
    offsets[n - 1] = size;
    push(`${n} 0 obj\n`);
    for (const b of body) push(b);
    push('\nendobj\n');
  };
  push('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n');
  obj(1, '<< /Type /Catalog /Pages 2 0 R >>');
  obj(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  obj(
    3,
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
  );
  obj(4, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  obj(5, `<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`, stream, '\nendstream');
  const xref = size;
  push(`xref\n0 6\n0000000000 65535 f \n`);
  for (const o of offsets) push(`${String(o).padStart(10, '0')} 00000 n \n`);
  push(`trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(chunks);
}
