import type { ChunkDraft } from '@fanpilot/core';
import type { Section } from './extract.ts';

export type { ChunkDraft };

export interface ChunkOptions {
  chunkSize: number;
  chunkOverlap: number;
}

/**
 * Splits sections with langchain's recursive splitter (paragraphs, then lines, sentences, words).
 * Every chunk carries its source metadata (the item's, plus its section's page or URL).
 */
export async function chunkSections(
  sections: Section[],
  base: Record<string, unknown>,
  options: ChunkOptions,
): Promise<ChunkDraft[]> {
  // Loaded with the first file split: a process that never ingests (an api beside its workers) does
  // not hold langchain (issue 39: the api's memory at rest).
  const { RecursiveCharacterTextSplitter } = await import('@langchain/textsplitters');
  const splitter = new RecursiveCharacterTextSplitter({
    chunkSize: options.chunkSize,
    chunkOverlap: Math.min(options.chunkOverlap, Math.floor(options.chunkSize / 2)),
  });
  const docs = await splitter.createDocuments(
    sections.map((s) => s.text),
    sections.map((s) => ({ ...base, ...s.metadata })),
  );
  return docs
    .filter((d) => d.pageContent.trim().length > 0)
    .map((d) => ({ content: d.pageContent, metadata: d.metadata as Record<string, unknown> }));
}

export interface TranscriptSegment {
  text: string;
  /** Seconds from the start of the video. */
  start: number;
  duration: number;
}

const watchUrl = (videoId: string, seconds: number) =>
  `https://www.youtube.com/watch?v=${videoId}&t=${Math.floor(seconds)}s`;

/**
 * Groups caption segments into chunks of about chunkSize characters, never cutting a segment, so
 * every chunk knows the moment it starts and ends (an answer can link to it).
 */
export function chunkTranscript(
  segments: TranscriptSegment[],
  base: Record<string, unknown> & { videoId: string },
  options: ChunkOptions,
): ChunkDraft[] {
  const chunks: ChunkDraft[] = [];
  let group: TranscriptSegment[] = [];
  let size = 0;
  const flush = () => {
    if (group.length === 0) return;
    const first = group[0]!;
    const last = group[group.length - 1]!;
    // Where each caption starts, in the text and in the video: [character offset, second], so a
    // citation can point at the very caption that answers, not only the passage's start.
    const moments: [number, number][] = [];
    let offset = 0;
    for (const s of group) {
      moments.push([offset, Math.floor(s.start)]);
      offset += s.text.length + 1;
    }
    chunks.push({
      content: group.map((s) => s.text).join(' '),
      metadata: {
        ...base,
        start: Math.floor(first.start),
        end: Math.ceil(last.start + last.duration),
        timestampUrl: watchUrl(base.videoId, first.start),
        moments,
      },
    });
  };
  for (const segment of segments) {
    const text = segment.text.replace(/\s+/g, ' ').trim();
    if (!text) continue;
    if (size + text.length > options.chunkSize && group.length > 0) {
      flush();
      // Carry the last segment over, so a thought cut at the edge is found from both sides.
      const tail = group[group.length - 1]!;
      group = options.chunkOverlap > 0 && tail.text.length < options.chunkSize / 2 ? [tail] : [];
      size = group.reduce((n, s) => n + s.text.length + 1, 0);
    }
    group.push({ ...segment, text });
    size += text.length + 1;
  }
  flush();
  return chunks;
}
