import type { ReactNode, Ref } from 'react';

interface SectionHeadingProps {
  title: string;
  lead?: ReactNode;
  /** Not `ref`: a plain prop, so it reaches the heading on React and on preact/compat alike. */
  headingRef?: Ref<HTMLHeadingElement>;
}

/** The heading of the section on view; focusable so a section change can move focus to it. */
export function SectionHeading({ title, lead, headingRef }: SectionHeadingProps) {
  return (
    <div className="mb-6">
      <h1
        ref={headingRef}
        tabIndex={-1}
        className="text-2xl font-bold tracking-tight text-slate-900 focus:outline-none"
      >
        {title}
      </h1>
      {lead && <p className="mt-1 text-slate-600">{lead}</p>}
    </div>
  );
}
