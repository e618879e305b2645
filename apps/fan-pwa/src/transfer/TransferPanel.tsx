import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { encode } from 'uqr';
import { createFanTransfer, errorMessage } from '../lib/api.ts';
import { transferTexts } from './texts.ts';

/** The QR code of `text` as SVG squares (no image URL, no HTML string: nothing a CSP refuses). */
function QrCode({ text }: { text: string }) {
  const qr = encode(text, { ecc: 'M', border: 2 });
  let path = '';
  qr.data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    });
  });
  return (
    <svg
      role="img"
      aria-label={transferTexts.transferQrLabel}
      viewBox={`0 0 ${qr.size} ${qr.size}`}
      shapeRendering="crispEdges"
      className="mx-auto size-56 bg-white"
      data-testid="transfer-qr"
    >
      <rect width={qr.size} height={qr.size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}

/**
 * Loaded only when the fan asks to move the chat (it carries the QR encoder): a one-time link and
 * its QR code, and what happens to a chat with no account.
 */
export default function TransferPanel({
  creator,
  fanId,
  onClose,
}: {
  creator: string;
  fanId: string;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [copied, setCopied] = useState(false);
  const make = useMutation({ mutationFn: () => createFanTransfer(creator, fanId) });
  const { mutate } = make;
  const started = useRef(false);

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    if (!started.current) {
      started.current = true;
      mutate();
    }
  }, [mutate]);

  const link = make.data;
  const copy = async () => {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link.url);
      setCopied(true);
    } catch {
      // The link stays selectable in the box below.
    }
  };

  return (
    <dialog
      ref={dialog}
      onClose={onClose}
      aria-labelledby="transfer-heading"
      className="m-auto w-[min(28rem,calc(100%-2rem))] rounded-2xl bg-white p-5 text-slate-900 backdrop:bg-slate-900/50"
    >
      <h2 id="transfer-heading" className="text-lg font-semibold">
        {transferTexts.transferHeading}
      </h2>
      <p className="mt-2 text-sm text-slate-700">{transferTexts.transferIntro}</p>
      <div className="mt-4 min-h-56" aria-live="polite">
        {make.isPending && <p className="text-sm text-slate-600">{transferTexts.transferMaking}</p>}
        {make.isError && (
          <p role="alert" className="text-sm text-red-800">
            {errorMessage(make.error, transferTexts.transferFailed)}
          </p>
        )}
        {link && (
          <>
            <QrCode text={link.url} />
            <label htmlFor="transfer-link" className="mt-3 block text-sm font-medium text-slate-800">
              {transferTexts.transferLinkLabel}
            </label>
            <div className="mt-1 flex gap-2">
              <input
                id="transfer-link"
                readOnly
                value={link.url}
                onFocus={(event) => event.currentTarget.select()}
                className="min-w-0 flex-1 rounded-lg border border-slate-300 px-2.5 py-1.5 text-sm text-slate-900"
              />
              <button
                type="button"
                onClick={() => void copy()}
                className="shrink-0 rounded-lg bg-brand-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-800"
              >
                {copied ? transferTexts.copied : transferTexts.copyLink}
              </button>
            </div>
            <p className="mt-2 text-sm text-slate-700">
              {transferTexts.transferExpires(
                new Date(link.expiresAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }),
              )}
            </p>
          </>
        )}
      </div>
      <p className="mt-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
        {transferTexts.noAccountWarning}
      </p>
      <div className="mt-4 flex justify-end">
        <button
          type="button"
          onClick={() => dialog.current?.close()}
          className="rounded-full border border-slate-300 px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50"
        >
          {transferTexts.close}
        </button>
      </div>
    </dialog>
  );
}
