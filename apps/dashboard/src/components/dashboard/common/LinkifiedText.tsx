import { linkify } from '../../../lib/linkify.ts';

/**
 * Text with its http(s) addresses as links that open in a new tab. Rendered as React text and
 * elements only (never as HTML), so a message cannot inject markup.
 */
export function LinkifiedText({ text }: { text: string }) {
  return (
    <>
      {linkify(text).map((segment, index) =>
        segment.kind === 'link' ? (
          <a
            key={index}
            href={segment.href}
            target="_blank"
            rel="noopener noreferrer"
            className="break-all text-brand-700 underline underline-offset-2 hover:text-brand-900"
          >
            {segment.text}
          </a>
        ) : (
          <span key={index}>{segment.text}</span>
        ),
      )}
    </>
  );
}
