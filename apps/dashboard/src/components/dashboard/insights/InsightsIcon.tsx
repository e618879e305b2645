import type { SVGProps } from 'react';

/** Insights' icon (bars rising); decorative, so hidden from assistive technology. */
export function InsightsIcon({ className = 'size-5', ...props }: SVGProps<SVGSVGElement>) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
      {...props}
    >
      <path d="M4 20h16" />
      <path d="M7 16v-4M12 16V8M17 16V5" />
    </svg>
  );
}
