import type { ReactNode, Ref } from 'react';

interface SectionHeadingProps {
  title: string;
  lead?: ReactNode;
  ref?: Ref<HTMLHeadingElement>;
}

/** The heading of the section on view; focusable so a section change can move focus to it. */
export function SectionHeading({ title, lead, ref }: SectionHeadingProps) {
  return (
    <div className="mb-6">
      <h1
        ref={ref}
        tabIndex={-1}
        className="text-2xl font-bold tracking-tight text-slate-900 focus:outline-none"
      >
        {title}
      </h1>
      {lead && <p className="mt-1 text-slate-600">{lead}</p>}
    </div>
  );
}
