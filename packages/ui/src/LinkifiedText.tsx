import type { ReactNode } from 'react';
import { splitCitations } from './citations.ts';
import { EXTERNAL_LINK_PROPS, linkify } from './linkify.ts';

const LINK = 'break-all underline underline-offset-2';

/**
 * Text with its http(s) and www. addresses as links that open in a new tab. Rendered as React text
 * and elements only (never as HTML), so a message cannot inject markup. With `renderCitation` (an AI
 * answer), its [n] markers become what that returns (a small link to source n), never raw text.
 */
export function LinkifiedText({
  text,
  linkClassName,
  renderCitation,
}: {
  text: string;
  linkClassName?: string;
  renderCitation?: (n: number) => ReactNode;
}) {
  if (renderCitation) {
    return (
      <>
        {splitCitations(text).map((segment, index) =>
          segment.kind === 'cite' ? (
            <span key={index}>{renderCitation(segment.n)}</span>
          ) : (
            <Linked key={index} text={segment.text} {...(linkClassName ? { linkClassName } : {})} />
          ),
        )}
      </>
    );
  }
  return <Linked text={text} {...(linkClassName ? { linkClassName } : {})} />;
}

function Linked({ text, linkClassName }: { text: string; linkClassName?: string }) {
  return (
    <>
      {linkify(text).map((segment, index) =>
        segment.kind === 'link' ? (
          <a
            key={index}
            href={segment.href}
            {...EXTERNAL_LINK_PROPS}
            className={linkClassName ?? `${LINK} text-brand-700 hover:text-brand-900`}
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

/** The look of a citation marker: a small superscript link. */
export const CITATION_MARKER_CLASS =
  'ml-0.5 align-super text-[11px] font-semibold text-brand-700 no-underline hover:underline focus-visible:outline-2 focus-visible:outline-brand-700';
