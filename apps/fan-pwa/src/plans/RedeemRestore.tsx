import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { errorMessage } from '../lib/api.ts';
import { keepFanId } from '../lib/fanId.ts';
import { MessagePage } from '../pages/MessagePage.tsx';
import { redeemRestoreLink } from './api.ts';
import { planTexts } from './texts.ts';

const storage = () => {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
};

/** Opened from a restore link (mailed to a subscriber): this browser takes the subscriber's chat. */
export default function RedeemRestore({ token, onDone }: { token: string; onDone: () => void }) {
  const redeem = useMutation({
    mutationFn: () => redeemRestoreLink(token),
    onSuccess: (moved) => {
      keepFanId(storage(), moved.fanId);
      onDone();
    },
  });
  const { mutate } = redeem;
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    mutate();
  }, [mutate]);
  if (redeem.isError) {
    return (
      <MessagePage
        heading={planTexts.restoreFailedHeading}
        text={errorMessage(redeem.error, planTexts.restoreFailedText)}
        action={{ label: planTexts.continueHere, onClick: onDone }}
      />
    );
  }
  return <MessagePage heading={planTexts.restoring} text="" />;
}
