import { EXTERNAL_LINK_PROPS, linkify } from '../lib/linkify.ts';

/** Text with its http(s) links clickable; rendered as React nodes, so the text can never become HTML. */
export function LinkifiedText({ text, linkClassName }: { text: string; linkClassName?: string }) {
  return (
    <>
      {linkify(text).map((segment, index) =>
        segment.kind === 'link' ? (
          <a key={index} href={segment.href} {...EXTERNAL_LINK_PROPS} className={linkClassName}>
            {segment.text}
          </a>
        ) : (
          <span key={index}>{segment.text}</span>
        ),
      )}
    </>
  );
}
