import { EXTERNAL_LINK_PROPS, linkify } from './linkify.ts';

const LINK = 'break-all underline underline-offset-2';

/**
 * Text with its http(s) and www. addresses as links that open in a new tab. Rendered as React text
 * and elements only (never as HTML), so a message cannot inject markup.
 */
export function LinkifiedText({ text, linkClassName }: { text: string; linkClassName?: string }) {
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
