import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ChatMessage,
  call,
  FanBrowser,
  identity,
  json,
  onboard,
  sent,
  startTestApp,
  type TestApp,
} from '../helpers.ts';

async function snapshot(t: TestApp) {
  const messages = await t.db.db.selectFrom('messages').select(['id', 'status']).orderBy('id').execute();
  const fans = await t.db.db.selectFrom('fans').select('id').orderBy('id').execute();
  return { messages, fans };
}

describe('conversations, creator side', () => {
  let t: TestApp;
  let anna: string;
  let ben: string;
  let finn: FanBrowser;
  let gina: FanBrowser;
  beforeAll(async () => {
    t = await startTestApp();
    anna = await onboard(t, 'anna');
    ben = await onboard(t, 'ben');
    // Online: these tests are about the creator answering; the AI stays silent.
    await call(t, 'POST', '/api/toggle-status', anna, { creator: 'anna' });
    finn = new FanBrowser(t);
    gina = new FanBrowser(t);
    await finn.ask('anna', 'Finn one', { fanName: 'Finn' });
    await gina.ask('anna', 'Gina one', { fanName: 'Gina' });
    await finn.ask('anna', 'Finn two');
  });
  afterAll(async () => {
    await t.close();
  });

  it("lists the creator's messages newest first, with fan id, name, status and both time fields", async () => {
    const res = await call(t, 'GET', '/api/creators/username/anna/messages', anna);
    expect(res.status).toBe(200);
    const list = (await res.json()) as ChatMessage[];
    expect(list.map((m) => m.message)).toEqual(['Finn two', 'Gina one', 'Finn one']);
    expect(list[0]).toMatchObject({
      from: 'fan',
      status: 'pending',
      fanId: finn.fanId,
      fanName: 'Finn',
      replyTo: null,
      fileAttachment: null,
    });
    expect(list[0]!.timestamp).toBe(list[0]!.created_at);
    const limited = (await (
      await call(t, 'GET', '/api/creators/username/anna/messages?limit=1', anna)
    ).json()) as unknown[];
    expect(limited).toHaveLength(1);
    expect((await call(t, 'GET', '/api/creators/username/anna/messages?limit=0', anna)).status).toBe(400);
  });

  it('lists fans by latest activity with their counts, by path and by query', async () => {
    const byPath = await json(await call(t, 'GET', '/api/creators/username/anna/fans', anna));
    expect(byPath).toEqual([
      {
        fanId: finn.fanId,
        fanName: 'Finn',
        messageCount: 2,
        pendingCount: 2,
        lastMessageTime: expect.any(String),
        firstSeenAt: expect.any(String),
      },
      expect.objectContaining({ fanId: gina.fanId, fanName: 'Gina', messageCount: 1, pendingCount: 1 }),
    ]);
    const byQuery = await json(await call(t, 'GET', '/api/fans?creator=anna', anna));
    expect(byQuery).toEqual(byPath);
  });

  it("reads one fan's conversation oldest first, and the whole chatlog as { messages }", async () => {
    const res = await call(t, 'GET', `/api/creators/username/anna/fans/${finn.fanId}/messages`, anna);
    expect(res.status).toBe(200);
    expect(((await res.json()) as ChatMessage[]).map((m) => m.message)).toEqual(['Finn one', 'Finn two']);
    const unknown = await call(t, 'GET', '/api/creators/username/anna/fans/mobile_fan_nobody/messages', anna);
    expect(unknown.status).toBe(404);
    const log = (await json(await call(t, 'GET', '/api/chatlog?creator=anna', anna))) as {
      messages: ChatMessage[];
    };
    expect(log.messages.map((m) => m.message)).toEqual(['Finn one', 'Gina one', 'Finn two']);
  });

  it("send-message answers the fan's newest pending message, then goes out as a direct message", async () => {
    const fan = new FanBrowser(t);
    const old = (await sent(await fan.ask('anna', 'Older'))).message;
    const newest = (await sent(await fan.ask('anna', 'Newest'))).message;

    const first = await call(t, 'POST', '/api/send-message', anna, {
      fanId: fan.fanId,
      message: ' On it! ',
      creatorUsername: 'anna',
    });
    expect(first.status).toBe(200);
    expect(await json(first)).toMatchObject({
      success: true,
      answeredMessageId: newest.id,
      message: { from: 'creator', message: 'On it!', replyTo: newest.id, fanId: fan.fanId },
    });
    const second = await json(
      await call(t, 'POST', '/api/send-message', anna, {
        fanId: fan.fanId,
        message: 'Also…',
        creatorUsername: 'anna',
      }),
    );
    expect(second).toMatchObject({ answeredMessageId: old.id, message: { replyTo: old.id } });
    const third = await json(
      await call(t, 'POST', '/api/send-message', anna, {
        fanId: fan.fanId,
        message: 'News for you',
        creatorUsername: 'anna',
      }),
    );
    expect(third).toMatchObject({ answeredMessageId: null, message: { replyTo: null, status: null } });

    const chat = await fan.messages('anna');
    expect(chat.map((m) => [m.from, m.message, m.status])).toEqual([
      ['fan', 'Older', 'answered'],
      ['fan', 'Newest', 'answered'],
      ['creator', 'On it!', null],
      ['creator', 'Also…', null],
      ['creator', 'News for you', null],
    ]);
  });

  it('refuses bad answers and messages with 4xx, changing nothing', async () => {
    const fan = new FanBrowser(t);
    const question = (await sent(await fan.ask('anna', 'Pending one'))).message;
    // A creator's own message is not a question.
    const other = new FanBrowser(t);
    const asked = (await sent(await other.ask('anna', 'Answer me'))).message;
    const answered = await sent(
      await call(t, 'POST', '/api/answer', anna, { creator: 'anna', messageId: asked.id, response: 'Done' }),
    );
    const before = await snapshot(t);
    const notQuestion = await call(t, 'POST', '/api/answer', anna, {
      creator: 'anna',
      messageId: answered.message.id,
      response: 'y',
    });
    expect(notQuestion.status).toBe(400);
    expect((await json(notQuestion)).error).toBe('not_a_fan_message');
    const cases: [string, string, unknown, number, string][] = [
      [
        '/api/answer',
        anna,
        { creator: 'anna', messageId: question.id, response: '   ' },
        400,
        'A response must not be empty',
      ],
      ['/api/answer', anna, { creator: 'anna', messageId: 'abc', response: 'Hi' }, 400, 'messageId'],
      [
        '/api/answer',
        anna,
        { creator: 'anna', messageId: '99999999', response: 'Hi' },
        404,
        'No such message',
      ],
      ['/api/answer', anna, { creator: 'anna', response: 'Hi' }, 400, 'messageId'],
      [
        '/api/answer',
        anna,
        { creator: 'anna', messageId: question.id, response: 'x'.repeat(10_001) },
        400,
        'response',
      ],
      // Ben cannot answer through his own name a message that is not his…
      [
        '/api/answer',
        ben,
        { creator: 'ben', messageId: question.id, response: 'Hi' },
        404,
        'No such message',
      ],
      // …nor act as Anna.
      ['/api/answer', ben, { creator: 'anna', messageId: question.id, response: 'Hi' }, 403, 'own account'],
      ['/api/answer', '', { creator: 'anna', messageId: question.id, response: 'Hi' }, 401, 'sign in'],
      [
        '/api/send-message',
        anna,
        { fanId: fan.fanId, message: ' ', creatorUsername: 'anna' },
        400,
        'A message must not be empty',
      ],
      [
        '/api/send-message',
        anna,
        { fanId: '', message: 'Hi', creatorUsername: 'anna' },
        400,
        'Cannot find fan ID. Please try again.',
      ],
      [
        '/api/send-message',
        anna,
        { message: 'Hi', creatorUsername: 'anna' },
        400,
        'Cannot find fan ID. Please try again.',
      ],
      [
        '/api/send-message',
        anna,
        { fanId: null, message: 'Hi', creatorUsername: 'anna' },
        400,
        'Cannot find fan ID. Please try again.',
      ],
      [
        '/api/send-message',
        anna,
        { fanId: 'mobile_fan_ghost', message: 'Hi', creatorUsername: 'anna' },
        404,
        'Cannot find fan ID. Please try again.',
      ],
      [
        '/api/send-message',
        ben,
        { fanId: fan.fanId, message: 'Hi', creatorUsername: 'ben' },
        404,
        'Cannot find fan ID',
      ],
      [
        '/api/send-message',
        ben,
        { fanId: fan.fanId, message: 'Hi', creatorUsername: 'anna' },
        403,
        'own account',
      ],
    ];
    for (const [path, cookie, body, status, text] of cases) {
      const res = await call(t, 'POST', path, cookie, body);
      expect([path, JSON.stringify(body), res.status]).toEqual([path, JSON.stringify(body), status]);
      const err = await json(res);
      expect(err.error).toBeTruthy();
      // A validation error names its field apart from its message.
      expect(`${err.field ?? ''} ${err.message}`).toContain(text);
      if (err.error === 'validation_error') expect(err.field).toEqual(expect.any(String));
    }
    // A missing or blank fan id reads the specified words exactly.
    for (const fanId of [undefined, null, '', '  ']) {
      const res = await call(t, 'POST', '/api/send-message', anna, {
        fanId,
        message: 'Hi',
        creatorUsername: 'anna',
      });
      expect(await json(res)).toEqual({
        error: 'validation_error',
        message: 'Cannot find fan ID. Please try again.',
        field: 'fanId',
      });
    }
    expect(await snapshot(t)).toEqual(before);
  });

  it('refuses another creator (403), unknown usernames (404) and the signed-out (401) on every creator read', async () => {
    const paths = [
      '/api/creators/username/{u}/messages',
      '/api/creators/username/{u}/fans',
      `/api/creators/username/{u}/fans/${finn.fanId}/messages`,
      '/api/chatlog?creator={u}',
      '/api/fans?creator={u}',
    ];
    for (const path of paths) {
      expect([path, (await call(t, 'GET', path.replace('{u}', 'anna'), ben)).status]).toEqual([path, 403]);
      expect([path, (await call(t, 'GET', path.replace('{u}', 'nobody'), ben)).status]).toEqual([path, 404]);
      expect([path, (await call(t, 'GET', path.replace('{u}', 'anna'), '')).status]).toEqual([path, 401]);
    }
    const missing = await call(t, 'GET', '/api/chatlog', anna);
    expect(missing.status).toBe(400);
  });

  it('deletes a conversation by fan id: messages and fan gone, others untouched; refused to others', async () => {
    const fan = new FanBrowser(t);
    await fan.ask('anna', 'Delete me');
    await call(t, 'POST', '/api/send-message', anna, {
      fanId: fan.fanId,
      message: 'Bye',
      creatorUsername: 'anna',
    });

    const refused = await call(t, 'DELETE', `/api/chatlog/fan/${fan.fanId}?creator=anna`, ben);
    expect(refused.status).toBe(403);
    expect((await call(t, 'DELETE', `/api/chatlog/fan/${fan.fanId}?creator=anna`, '')).status).toBe(401);

    // The specified client sends a JSON content type with no body.
    const res = await fetch(`${t.url}/api/chatlog/fan/${fan.fanId}?creator=anna`, {
      method: 'DELETE',
      headers: { cookie: anna, 'content-type': 'application/json' },
      body: '',
    });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ success: true, deletedMessages: 2 });
    const fans = (await json(await call(t, 'GET', '/api/fans?creator=anna', anna))) as unknown as {
      fanId: string;
    }[];
    expect(fans.map((f) => f.fanId)).not.toContain(fan.fanId);
    expect(fans.map((f) => f.fanId)).toContain(finn.fanId);
    expect(await fan.messages('anna')).toEqual([]);

    const again = await call(t, 'DELETE', `/api/chatlog/fan/${fan.fanId}?creator=anna`, anna);
    expect(again.status).toBe(404);
  });

  it('deletes the conversation of an anonymous fan by name', async () => {
    const anon = await t.db.db
      .selectFrom('creators')
      .select('id')
      .where('username', '=', 'anna')
      .executeTakeFirstOrThrow();
    await t.db.db
      .insertInto('messages')
      .values([
        {
          creator_id: anon.id,
          fan_id: null,
          sender: 'fan',
          body: 'Walk-in question',
          status: 'pending',
          fan_name: 'Walk In',
        },
        {
          creator_id: anon.id,
          fan_id: null,
          sender: 'creator',
          body: 'Reply',
          status: null,
          fan_name: 'Walk In',
        },
      ])
      .execute();
    const res = await call(
      t,
      'DELETE',
      `/api/chatlog/fan/${encodeURIComponent('Walk In')}?creator=anna`,
      anna,
    );
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ success: true, deletedMessages: 2 });
    const left = await t.db.db
      .selectFrom('messages')
      .select('id')
      .where('fan_name', '=', 'Walk In')
      .execute();
    expect(left).toEqual([]);
  });

  it('calls a fan who gave no name by one generated name everywhere: list, conversation, messages (issue 29)', async () => {
    const quiet = new FanBrowser(t);
    expect((await quiet.ask('anna', 'No name given')).status).toBe(200);
    const list = (await json(await call(t, 'GET', '/api/creators/username/anna/conversations', anna))) as {
      conversations: { fanId: string; fanName: string | null }[];
    };
    const row = list.conversations.find((c) => c.fanId === quiet.fanId);
    expect(row?.fanName).toMatch(/^Fan \d{4}$/);
    const page = (await json(
      await call(t, 'GET', `/api/creators/username/anna/fans/${quiet.fanId}/conversation`, anna),
    )) as { fanName: string | null; messages: { fanName: string | null }[] };
    expect(page.fanName).toBe(row?.fanName);
    expect(page.messages.map((m) => m.fanName)).toEqual([row?.fanName]);
    const recent = (await json(
      await call(t, 'GET', '/api/creators/username/anna/messages', anna),
    )) as unknown as {
      fanId: string;
      fanName: string | null;
    }[];
    expect(recent.filter((m) => m.fanId === quiet.fanId).map((m) => m.fanName)).toEqual([row?.fanName]);
    // Once the fan chooses a name, that one name is used everywhere, older messages included.
    expect((await quiet.ask('anna', 'Now with a name', { fanName: 'Quinn' })).status).toBe(200);
    const again = (await json(
      await call(t, 'GET', `/api/creators/username/anna/fans/${quiet.fanId}/conversation`, anna),
    )) as { fanName: string | null; messages: { fanName: string | null }[] };
    expect(again.fanName).toBe('Quinn');
    expect(again.messages.map((m) => m.fanName)).toEqual(['Quinn', 'Quinn']);
  });

  it("a creator sees only their own fans, never another creator's", async () => {
    const cookie = await t.signIn(identity('ben'));
    const list = (await json(
      await call(t, 'GET', '/api/creators/username/ben/fans', cookie),
    )) as unknown as unknown[];
    expect(list).toEqual([]);
    const log = await json(await call(t, 'GET', '/api/chatlog?creator=ben', cookie));
    expect(log).toEqual({ messages: [] });
  });
});
