import type { CitedPassage } from '@fanpilot/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { citationTexts } from './texts.ts';

/** A file citation the fan tapped: the AI answer and the citation's position in its sources. */
export interface OpenCitation {
  messageId: string;
  n: number;
  /** Shown while the passage loads. */
  title: string;
}

/** A download link is asked for again this long before it expires, while the viewer is open. */
const LINK_MARGIN_MS = 30_000;

/**
 * The passage an AI answer quoted from one of the creator's files, with the file's name and page,
 * in the app's own viewer: what a citation of a file shows the fan it was given to. The whole file
 * only when the creator allows it (a short-lived download link, kept fresh while this is open).
 */
export default function CitationViewer({
  fanId,
  citation,
  load,
  describeError,
  onClose,
}: {
  fanId: string;
  citation: OpenCitation;
  /** Reads the passage (the fanCitation call). */
  load: (fanId: string, messageId: string, n: number) => Promise<CitedPassage>;
  /** The words of an error answer, or the fallback. */
  describeError: (err: unknown, fallback: string) => string;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const passage = useQuery({
    queryKey: ['citation', fanId, citation.messageId, citation.n],
    queryFn: () => load(fanId, citation.messageId, citation.n),
    retry: false,
    // Each opening asks again: the creator may have allowed or stopped downloads meanwhile, and a
    // kept link may have expired.
    gcTime: 0,
    refetchOnMount: 'always',
    refetchInterval: (query) => {
      const expires = query.state.data?.downloadExpiresAt;
      return expires ? Math.max(10_000, Date.parse(expires) - Date.now() - LINK_MARGIN_MS) : false;
    },
  });

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);

  const data = passage.data;
  return (
    <dialog
      ref={dialog}
      onClose={onClose}
      aria-labelledby="citation-heading"
      data-testid="citation-viewer"
      className="m-auto flex max-h-[85dvh] w-[min(32rem,calc(100%-2rem))] flex-col rounded-2xl bg-white p-5 text-slate-900 backdrop:bg-slate-900/50"
    >
      <h2 id="citation-heading" className="text-lg font-semibold break-words">
        {data?.source ?? citation.title}
      </h2>
      {data && data.page !== null && (
        <p className="mt-0.5 text-sm text-slate-600">{citationTexts.page(data.page)}</p>
      )}
      <div className="mt-3 min-h-24 overflow-y-auto" aria-live="polite">
        {passage.isPending && <p className="text-sm text-slate-600">{citationTexts.loading}</p>}
        {passage.isError && (
          <p role="alert" className="text-sm text-red-800">
            {describeError(passage.error, citationTexts.failed)}
          </p>
        )}
        {data && (
          <figure>
            <figcaption className="sr-only">{citationTexts.quoted}</figcaption>
            <blockquote
              data-testid="citation-passage"
              className="border-l-4 border-brand-200 bg-slate-50 py-2 pr-2 pl-3 text-[15px] leading-relaxed whitespace-pre-wrap break-words"
            >
              {data.text}
            </blockquote>
          </figure>
        )}
      </div>
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        {data?.downloadUrl && (
          <a
            href={data.downloadUrl}
            download
            className="rounded-full bg-brand-700 px-4 py-2 text-sm font-medium text-white hover:bg-brand-800"
          >
            {citationTexts.download}
          </a>
        )}
        <button
          type="button"
          onClick={() => dialog.current?.close()}
          className="rounded-full border border-slate-300 px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50"
        >
          {citationTexts.close}
        </button>
      </div>
    </dialog>
  );
}
