// The side panel: the fan chat of each creator the fan follows (docs/extension.md). While it is
// open it follows the chat's event stream (reading the chat on each change; polling only slowly
// then, and every few seconds while there is no stream) and holds a port to the worker, which then
// sends no notifications; what it shows counts as seen.
import { AI_SENDER } from '@fanpilot/contracts';
import { errorWords, type FanChatMessage, fanClient, newestReply } from './lib/api.ts';
import { type ChatStream, openChatStream } from './lib/live.ts';
import { PANEL_PORT, type WorkerRequest, type WorkerResponse } from './lib/messages.ts';
import { type ExtensionState, type Follow, readState, saveFollows } from './lib/state.ts';

/** How often the open chat is read without its event stream, and with it (a safety net). */
const READ_EVERY_MS = 4_000;
const READ_LIVE_MS = 30_000;
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

let state: ExtensionState;
let current: Follow | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;
let port: chrome.runtime.Port | null = null;
let stream: ChatStream | null = null;

function connect() {
  port = chrome.runtime.connect({ name: PANEL_PORT });
  // The worker was stopped (it is, when idle): connect again so it knows the panel is open.
  port.onDisconnect.addListener(() => setTimeout(connect, 500));
}

function showError(id: string, text: string | null) {
  const el = $<HTMLParagraphElement>(id);
  el.textContent = text ?? '';
  el.hidden = !text;
}

function renderFollows() {
  const nav = $<HTMLElement>('follows');
  nav.replaceChildren(
    ...state.follows.map((f) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = f.name;
      b.setAttribute('aria-current', String(current?.username === f.username));
      if (f.notifiedReplyId && f.notifiedReplyId !== f.seenReplyId) {
        const dot = document.createElement('span');
        dot.className = 'dot';
        dot.setAttribute('aria-label', 'new reply');
        b.append(dot);
      }
      b.addEventListener('click', () => void open(f.username));
      return b;
    }),
  );
}

function renderMessages(follow: Follow, messages: FanChatMessage[]) {
  const main = $<HTMLElement>('chat');
  if (messages.length === 0) {
    const p = document.createElement('p');
    p.className = 'empty';
    p.textContent = `Say hello to ${follow.name}.`;
    main.replaceChildren(p);
    return;
  }
  const nearBottom = main.scrollHeight - main.scrollTop - main.clientHeight < 80;
  main.replaceChildren(
    ...messages.map((m) => {
      const div = document.createElement('div');
      div.className = `bubble ${m.from === 'fan' ? 'fan' : 'reply'}`;
      if (m.from !== 'fan') {
        const who = document.createElement('span');
        who.className = 'who';
        who.textContent = m.from === AI_SENDER ? 'AI Coach' : follow.name;
        div.append(who);
      }
      div.append(document.createTextNode(m.message));
      return div;
    }),
  );
  if (nearBottom) main.scrollTop = main.scrollHeight;
}

async function read() {
  clearTimeout(timer);
  const follow = current;
  if (!follow) return;
  try {
    const messages = await fanClient(state).chatlog(follow.fanId, follow.username);
    if (current !== follow) return;
    renderMessages(follow, messages);
    const reply = newestReply(messages);
    if (reply && reply.id !== follow.seenReplyId) {
      follow.seenReplyId = reply.id;
      await saveFollows(state.follows);
      port?.postMessage({ type: 'seen' });
      renderFollows();
    }
  } catch (err) {
    showError('send-error', errorWords(err, 'The chat could not be read. It is tried again in a moment.'));
  }
  if (current === follow)
    timer = setTimeout(() => void read(), stream?.connected ? READ_LIVE_MS : READ_EVERY_MS);
}

/** Follows the open chat's event stream (the one chat shown; the worker watches the others). */
function follow(chat: Follow | null) {
  stream?.close();
  stream = chat
    ? openChatStream(state, chat, {
        onChange: () => void read(),
        // Opened: read what changed before it; closed: back to the quick poll.
        onConnected: () => void read(),
      })
    : null;
}

async function open(username: string) {
  state = await readState();
  const previous = current;
  current = state.follows.find((f) => f.username === username) ?? null;
  if (previous?.username !== current?.username || previous?.fanId !== current?.fanId) follow(current);
  renderFollows();
  $<HTMLFormElement>('composer').hidden = current === null;
  showError('send-error', null);
  await read();
}

$<HTMLFormElement>('follow-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = $<HTMLInputElement>('follow-input');
  showError('follow-error', null);
  const request: WorkerRequest = { type: 'follow', username: input.value };
  const answer = (await chrome.runtime.sendMessage(request)) as WorkerResponse;
  if (!answer.ok) return showError('follow-error', answer.error);
  input.value = '';
  await open(answer.username);
});

$<HTMLFormElement>('composer').addEventListener('submit', async (event) => {
  event.preventDefault();
  const box = $<HTMLTextAreaElement>('message');
  const text = box.value.trim();
  if (!text || !current) return;
  showError('send-error', null);
  try {
    await fanClient(state).ask(current.fanId, current.username, text);
    box.value = '';
    // A first message starts the conversation, and with it the stream it could not open before.
    stream?.retryNow();
    await read();
  } catch (err) {
    showError('send-error', errorWords(err, 'Message failed to send. Please try again.'));
  }
});

$<HTMLTextAreaElement>('message').addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey) {
    event.preventDefault();
    $<HTMLFormElement>('composer').requestSubmit();
  }
});

chrome.storage.onChanged.addListener((changes) => {
  if (changes.follows || changes.origin || changes.token) {
    void readState().then((next) => {
      state = next;
      // Another address in the options: the open chat's stream goes there too.
      if ((changes.origin || changes.token) && current) follow(current);
      if (!current && state.follows[0]) void open(state.follows[0].username);
      else renderFollows();
    });
  }
});

connect();
void readState().then((initial) => {
  state = initial;
  const first = state.follows[0];
  if (first) void open(first.username);
  else renderFollows();
});
