import { createHash } from 'node:crypto';
import { threadId } from 'node:worker_threads';
import { type ChunkDraft, type ChunkOptions, chunkSections } from './chunk.ts';
import { extractFile, extractHtml, extractPdf } from './extract.ts';
import { detectKnowledgeFile, type KnowledgeFileKind } from './files.ts';

/** Work for a parser thread: bytes in, chunks out. Plain data only (it crosses threads). */
export type ParseTask =
  | {
      kind: 'file';
      /** What the file is; when absent, judged here (in the thread) from its bytes and fileName. */
      fileKind?: KnowledgeFileKind;
      fileName?: string;
      bytes: Uint8Array;
      base: Record<string, unknown>;
      chunking: ChunkOptions;
    }
  | {
      kind: 'html';
      bytes: Uint8Array;
      contentType: string;
      url: string;
      base: Record<string, unknown>;
      chunking: ChunkOptions;
    }
  | {
      kind: 'pdf-url';
      bytes: Uint8Array;
      url: string;
      base: Record<string, unknown>;
      chunking: ChunkOptions;
    };

export interface ParseResult {
  title: string | null;
  chunks: ChunkDraft[];
  pages: number;
  /** What the chunks say (sha-256 of their text and metadata): a re-sync that finds it unchanged keeps them. */
  digest: string;
  /** The thread that parsed (the pool's threads are never the job's own). */
  threadId: number;
  /** A web page's links to its own site (crawling follows them). */
  links?: string[];
}

/** The digest of chunks (see ParseResult.digest). */
export function digestOf(chunks: ChunkDraft[]): string {
  const hash = createHash('sha256');
  hash.update('[');
  chunks.forEach((c, i) => {
    hash.update(`${i > 0 ? ',' : ''}${JSON.stringify([c.content, c.metadata])}`);
  });
  return hash.update(']').digest('hex');
}

/** Extracts and chunks; CPU-heavy, so it runs in a parser thread (see pool.ts). */
export async function runParseTask(task: ParseTask): Promise<ParseResult> {
  const extracted =
    task.kind === 'file'
      ? await extractFile(
          task.fileKind ?? (await detectKnowledgeFile(task.bytes, task.fileName ?? '')),
          task.bytes,
        )
      : task.kind === 'pdf-url'
        ? await extractPdf(task.bytes)
        : extractHtml(task.bytes, task.contentType, task.url);
  const base = {
    ...task.base,
    ...(task.kind !== 'file' ? { url: task.url } : {}),
    ...(extracted.title && task.kind !== 'file' ? { title: extracted.title } : {}),
  };
  const chunks = await chunkSections(extracted.sections, base, task.chunking);
  return {
    title: extracted.title,
    chunks,
    pages: extracted.pages,
    digest: digestOf(chunks),
    threadId,
    ...(extracted.links ? { links: extracted.links } : {}),
  };
}
