// The extension's service worker (Manifest V3): follows creators, and while the side panel is
// closed, looks for new replies every half minute (chrome.alarms: a worker is not kept alive to
// hold an event stream) and says so with the badge and a notification (docs/extension.md).
import { errorWords, fanClient, newestReply } from './lib/api.ts';
import { PANEL_PORT, type PanelMessage, type WorkerRequest, type WorkerResponse } from './lib/messages.ts';
import { type Follow, newFanId, readState, saveFollows, usernameFrom } from './lib/state.ts';

const POLL_ALARM = 'fanpilot-poll';
/** The shortest period Chrome allows an alarm (30 s). */
const POLL_MINUTES = 0.5;

let openPanels = 0;

async function ensureAlarm() {
  if (!(await chrome.alarms.get(POLL_ALARM))) {
    await chrome.alarms.create(POLL_ALARM, { periodInMinutes: POLL_MINUTES, delayInMinutes: POLL_MINUTES });
  }
}

chrome.runtime.onInstalled.addListener(() => {
  void ensureAlarm();
  void chrome.sidePanel?.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => undefined);
});
chrome.runtime.onStartup.addListener(() => void ensureAlarm());
void ensureAlarm();

chrome.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === POLL_ALARM) void checkForReplies();
});

/** Badge: how many followed creators have a reply the fan has not seen. */
async function updateBadge(follows: Follow[]) {
  const unseen = follows.filter((f) => f.notifiedReplyId && f.notifiedReplyId !== f.seenReplyId).length;
  await chrome.action.setBadgeBackgroundColor({ color: '#b91c1c' });
  await chrome.action.setBadgeText({ text: unseen > 0 ? String(unseen) : '' });
}

/** One look at every followed chat; new replies are announced only while no panel is open. */
async function checkForReplies() {
  const state = await readState();
  if (state.follows.length === 0) return;
  const api = fanClient(state);
  let changed = false;
  for (const follow of state.follows) {
    try {
      const reply = newestReply(await api.chatlog(follow.fanId, follow.username));
      if (!reply || reply.id === follow.seenReplyId || reply.id === follow.notifiedReplyId) continue;
      if (openPanels > 0) continue;
      follow.notifiedReplyId = reply.id;
      changed = true;
      chrome.notifications.create(`reply:${follow.username}:${reply.id}`, {
        type: 'basic',
        iconUrl: chrome.runtime.getURL('icon-128.png'),
        title: `${follow.name} replied`,
        message: reply.message.slice(0, 200),
        priority: 1,
      });
    } catch {
      // Offline or refused: the next alarm looks again.
    }
  }
  if (changed) await saveFollows(state.follows);
  await updateBadge(state.follows);
}

async function follow(text: string): Promise<WorkerResponse> {
  const username = usernameFrom(text);
  if (!username) return { ok: false, error: 'Type a creator’s username.' };
  const state = await readState();
  const known = state.follows.find((f) => f.username.toLowerCase() === username.toLowerCase());
  if (known) return { ok: true, username: known.username, name: known.name };
  try {
    const creator = await fanClient(state).creator(username);
    state.follows.push({
      username: creator.username,
      name: creator.name,
      fanId: newFanId(),
      seenReplyId: null,
      notifiedReplyId: null,
    });
    await saveFollows(state.follows);
    return { ok: true, username: creator.username, name: creator.name };
  } catch (err) {
    return { ok: false, error: errorWords(err, 'This creator could not be followed. Please try again.') };
  }
}

chrome.runtime.onMessage.addListener(
  (request: WorkerRequest, _sender, respond: (r: WorkerResponse) => void) => {
    if (request?.type === 'follow') {
      void follow(String(request.username)).then(respond);
      return true;
    }
    return false;
  },
);

chrome.notifications.onClicked.addListener((id) => {
  chrome.notifications.clear(id);
});

// The side panel holds a port while it is open: replies then show there, not as notifications.
chrome.runtime.onConnect.addListener((port) => {
  if (port.name !== PANEL_PORT) return;
  openPanels++;
  port.onMessage.addListener((message: PanelMessage) => {
    if (message.type === 'seen') void readState().then((state) => updateBadge(state.follows));
  });
  port.onDisconnect.addListener(() => {
    openPanels = Math.max(0, openPanels - 1);
  });
});
