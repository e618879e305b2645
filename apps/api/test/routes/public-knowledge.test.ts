import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, json, onboard, startTestApp, type TestApp } from '../helpers.ts';

/** The file behind a citation: served only for ready file items, to anyone holding the item id. */
describe('GET /api/public/knowledge/{id}/file', () => {
  let t: TestApp;
  let chatbotId: string;
  const item = async (values: Record<string, unknown>) => {
    const row = await t.db.db
      .insertInto('knowledge_items')
      .values({ chatbot_id: chatbotId, type: 'file', ...values } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  };
  beforeAll(async () => {
    t = await startTestApp();
    const cookie = await onboard(t, 'kim');
    chatbotId = String((await json(await call(t, 'GET', '/api/creators/username/kim/chatbot', cookie))).id);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves a ready PDF inline, and nothing else', async () => {
    await t.storage.put('knowledge/test/guide', Buffer.from('%PDF-1.4 fake'), 'application/pdf');
    const ready = await item({
      file_name: 'guide.pdf',
      file_key: 'knowledge/test/guide',
      status: 'completed',
    });
    const res = await fetch(`${t.url}/api/public/knowledge/${ready}/file`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toMatch(/^inline; filename="guide.pdf"/);
    expect(await res.text()).toBe('%PDF-1.4 fake');

    const pending = await item({
      file_name: 'draft.pdf',
      file_key: 'knowledge/test/guide',
      status: 'pending',
    });
    const page = await item({ type: 'url', url: 'https://example.com/', status: 'completed' });
    const gone = await item({
      file_name: 'gone.pdf',
      file_key: 'knowledge/test/missing',
      status: 'completed',
    });
    for (const id of [pending, page, gone, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const r = await fetch(`${t.url}/api/public/knowledge/${id}/file`);
      expect(r.status, id).toBe(404);
      expect(await r.json()).toHaveProperty('message');
    }
  });
});
