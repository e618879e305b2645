import { cn } from '@fanpilot/ui';
import type { ComponentType, ReactNode, SVGProps } from 'react';

interface CardProps {
  title: string;
  Icon?: ComponentType<SVGProps<SVGSVGElement>>;
  /** Shown at the right of the title, e.g. a button. */
  action?: ReactNode;
  children: ReactNode;
  className?: string;
}

/** A titled panel of a dashboard section. */
export function Card({ title, Icon, action, children, className }: CardProps) {
  return (
    // min-w-0: a long address inside never widens the grid column (or a 390 px page).
    <section className={cn('min-w-0 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm', className)}>
      <div className="flex items-center justify-between gap-3">
        <h2 className="flex items-center gap-2 text-base font-semibold text-slate-900">
          {Icon && <Icon className="size-5 text-brand-600" />}
          {title}
        </h2>
        {action}
      </div>
      <div className="mt-4">{children}</div>
    </section>
  );
}

/**
 * The text a card shows while it has nothing to list. A note goes in its own paragraph, so the text
 * (often quoted from the product description (docs/product.md#contractual-texts)) stands alone.
 */
export function EmptyState({
  children,
  Icon,
  note,
}: {
  children: ReactNode;
  Icon?: CardProps['Icon'];
  note?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center justify-center gap-2 rounded-xl border border-dashed border-slate-300 bg-slate-50 px-4 py-8 text-center">
      {Icon && <Icon className="size-7 text-slate-400" />}
      <p className="text-sm text-slate-600">{children}</p>
      {note && <p className="text-sm text-slate-600">{note}</p>}
    </div>
  );
}
