import { type ReactNode, Suspense, useEffect, useRef, useState } from 'react';

/**
 * Renders `children` once its place has come near the viewport (its code, lazily imported, loads
 * then): what a first screen does not show does not weigh on it (issue 39). Until then a
 * placeholder of `minHeight` holds the place, so the page does not jump.
 */
export function WhenSeen({
  children,
  minHeight = 160,
  className,
}: {
  children: ReactNode;
  minHeight?: number;
  className?: string;
}) {
  const [seen, setSeen] = useState(false);
  const place = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    const el = place.current;
    if (seen || !el) return;
    if (typeof IntersectionObserver !== 'function') {
      setSeen(true);
      return;
    }
    const watch = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setSeen(true);
      },
      { rootMargin: '200px 0px' },
    );
    watch.observe(el);
    return () => watch.disconnect();
  }, [seen]);
  const placeholder = <div ref={place} className={className} style={{ minHeight }} aria-hidden="true" />;
  if (!seen) return placeholder;
  return <Suspense fallback={<div className={className} style={{ minHeight }} />}>{children}</Suspense>;
}
