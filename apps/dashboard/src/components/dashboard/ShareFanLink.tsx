import { useEffect, useState } from 'react';
import { creatorLinks } from '../../lib/destinations.ts';
import { TEXT } from '../../texts.ts';

const t = TEXT.share;

/** A PNG of the QR code for `url` as a data: URL (the page's CSP allows data: images). */
async function qrPng(url: string): Promise<string> {
  const QRCode = await import('qrcode');
  return QRCode.toDataURL(url, { width: 512, margin: 2, errorCorrectionLevel: 'M' });
}

/**
 * The fan app's QR code to show or print, downloadable as a PNG (issue 29); the copy buttons are
 * beside the addresses (CreatorLinks).
 */
export function ShareFanLink({ username }: { username: string }) {
  const { pwa } = creatorLinks(username);
  const [qr, setQr] = useState<string | null>(null);
  // The QR code's library (8.6 KB gzipped) loads once the first screen is up (the card sits under
  // it, in WhenSeen), not with it (issue 39).
  useEffect(() => {
    let live = true;
    qrPng(pwa).then(
      (png) => live && setQr(png),
      () => live && setQr(null),
    );
    return () => {
      live = false;
    };
  }, [pwa]);
  return (
    <div className="flex flex-col items-start gap-3 sm:flex-row sm:items-center">
      {qr ? (
        <img
          src={qr}
          alt={t.qrAlt(pwa)}
          width={128}
          height={128}
          className="rounded-lg border border-slate-200"
        />
      ) : (
        <div
          className="size-32 animate-pulse rounded-lg bg-slate-100"
          role="status"
          aria-label={TEXT.common.loading}
        />
      )}
      <div className="flex flex-wrap gap-2">
        {qr && (
          <a
            href={qr}
            download={`fanpilot-${username}-qr.png`}
            className="inline-flex items-center rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-900 shadow-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
          >
            {t.downloadQr}
          </a>
        )}
      </div>
    </div>
  );
}
