import { type ReactNode, Suspense, useEffect, useRef, useState } from 'react';

/** Runs `run` once the browser is idle (at the latest after `ms`); returns the cancel. */
export function whenIdle(run: () => void, ms = 1_500): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(run, { timeout: ms });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(run, 1);
  return () => window.clearTimeout(id);
}

/**
 * Renders `children` (whose code is lazily imported) once the first screen is up: when the browser
 * is next idle, or sooner when its place comes near the viewport. What a first screen does not show
 * does not weigh on it (issue 39), and it is on the page moments later, for find-in-page and screen
 * readers alike. Until then a placeholder of `minHeight` holds the place, so the page does not jump.
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
  const [ready, setReady] = useState(false);
  const place = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    const el = place.current;
    if (ready || !el) return;
    const cancelIdle = whenIdle(() => setReady(true));
    if (typeof IntersectionObserver !== 'function') return cancelIdle;
    const watch = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setReady(true);
      },
      { rootMargin: '200px 0px' },
    );
    watch.observe(el);
    return () => {
      cancelIdle();
      watch.disconnect();
    };
  }, [ready]);
  const placeholder = <div ref={place} className={className} style={{ minHeight }} aria-hidden="true" />;
  if (!ready) return placeholder;
  return <Suspense fallback={<div className={className} style={{ minHeight }} />}>{children}</Suspense>;
}
