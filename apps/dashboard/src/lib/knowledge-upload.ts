import { KNOWLEDGE_FILE_MAX_BYTES, type KnowledgeItem } from '@fanpilot/contracts';
import { ApiError } from './api.ts';

/**
 * POST /api/chatbots/{id}/knowledge/upload as multipart form data (field `file`), with the session
 * cookie. Any non-OK answer fails with an ApiError carrying the server's message.
 */
export async function uploadKnowledgeFile(chatbotId: string, file: File): Promise<KnowledgeItem> {
  const form = new FormData();
  form.append('file', file, file.name);
  const response = await fetch(`/api/chatbots/${encodeURIComponent(chatbotId)}/knowledge/upload`, {
    method: 'POST',
    credentials: 'include',
    headers: { Accept: 'application/json' },
    body: form,
  });
  const text = await response.text().catch(() => '');
  if (!response.ok) throw new ApiError(response.status, response.statusText, text);
  return JSON.parse(text) as KnowledgeItem;
}

export const KNOWLEDGE_FILE_ACCEPT = '.pdf,.txt,.doc,.docx';

export const isKnowledgeFileTooLarge = (file: File) => file.size > KNOWLEDGE_FILE_MAX_BYTES;
