import type { Chatbot, Creator, CurrentUser, KnowledgeItem, ModelChoice } from '@fanpilot/contracts';
import type { ChatbotRow, CreatorRow, KnowledgeItemRow } from '@fanpilot/db';

const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());

/** Profile images are served by the api from object storage, same origin as the apps. */
export const objectUrl = (key: string | null) =>
  key ? `/objects/${key.split('/').map(encodeURIComponent).join('/')}` : null;

export function toCreator(row: CreatorRow): Creator {
  return {
    id: row.id,
    name: row.name,
    username: row.username,
    profileImageUrl: objectUrl(row.profile_image_key),
    onboardingComplete: row.onboarding_complete,
  };
}

export function toCurrentUser(row: CreatorRow): CurrentUser {
  return { ...toCreator(row), email: row.email, description: row.description };
}

export function toKnowledgeItem(row: KnowledgeItemRow): KnowledgeItem {
  return {
    id: row.id,
    type: row.type,
    url: row.url,
    youtubeUrl: row.youtube_url,
    fileName: row.file_name,
    title: row.title,
    status: row.status,
    error: row.status === 'failed' ? row.error : null,
    source: row.url ?? row.youtube_url ?? row.file_name ?? '',
    createdAt: iso(row.created_at),
    processedAt: row.processed_at ? iso(row.processed_at) : null,
    chunkCount: row.chunk_count,
    fileSize: row.file_size,
    ...(row.type === 'file' ? { fansMayDownload: row.fans_may_download } : {}),
    ...(row.status === 'failed' ? { failedForGood: row.failed_for_good } : {}),
  };
}

export function toChatbot(row: ChatbotRow, knowledge: KnowledgeItemRow[]): Chatbot {
  return {
    id: row.id,
    chatbotId: row.id,
    name: row.name,
    instructions: row.instructions,
    model: row.model as ModelChoice,
    temp: Math.round(row.temperature * 10) / 10,
    initialMessages: row.initial_messages,
    dailyAiBudget: row.daily_ai_budget,
    knowledge: knowledge.map(toKnowledgeItem),
  };
}

export { iso };
