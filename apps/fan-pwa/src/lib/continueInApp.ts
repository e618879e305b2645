import { createFanTransfer } from './api.ts';

/**
 * "Continue in the app" (the website widget): the chat's one-time transfer link
 * (docs/product.md#moving-a-chat), opened in a new tab, where the fan app takes the chat over for
 * that browser. The tab opens at the tap (a later window.open would be a blocked popup) and is sent
 * to the link once it is made; it is closed again if the link cannot be made.
 */
export async function continueInApp(creator: string, fanId: string): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const { url } = await createFanTransfer(creator, fanId);
    if (tab) {
      tab.opener = null;
      tab.location.href = url;
    } else {
      window.open(url, '_blank', 'noopener');
    }
  } catch (err) {
    tab?.close();
    throw err;
  }
}
