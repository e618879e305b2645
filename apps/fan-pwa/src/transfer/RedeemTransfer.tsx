import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { errorMessage, redeemFanTransfer } from '../lib/api.ts';
import { keepFanId } from '../lib/fanId.ts';
import { MessagePage } from '../pages/MessagePage.tsx';
import { transferTexts } from './texts.ts';

const storage = () => {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
};

/** Opened from a transfer link: this browser takes the chat over, then shows it. */
export default function RedeemTransfer({ token, onDone }: { token: string; onDone: () => void }) {
  const redeem = useMutation({
    mutationFn: () => redeemFanTransfer(token),
    onSuccess: (moved) => {
      keepFanId(storage(), moved.fanId);
      onDone();
    },
  });
  const { mutate } = redeem;
  // A link works once: one attempt, also when development mode runs effects twice.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    mutate();
  }, [mutate]);

  if (redeem.isError) {
    return (
      <MessagePage
        heading={transferTexts.redeemFailedHeading}
        text={errorMessage(redeem.error, transferTexts.redeemFailedText)}
        action={{ label: transferTexts.continueHere, onClick: onDone }}
      />
    );
  }
  return <MessagePage heading={transferTexts.redeeming} text={transferTexts.noAccountWarning} />;
}
