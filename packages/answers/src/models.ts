import { DEFAULT_MODEL, MODEL_CHOICES, type ModelChoice } from '@fanpilot/contracts';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';

/** The provider keys the answerer reads; an app's validated env satisfies this shape. */
export interface ModelEnv {
  OPENAI_API_KEY?: string | undefined;
  /** An OpenAI-compatible endpoint, e.g. a proxy or a loopback stand-in in tests. */
  OPENAI_BASE_URL?: string | undefined;
  ANTHROPIC_API_KEY?: string | undefined;
  GOOGLE_GENAI_API_KEY?: string | undefined;
  DEEPSEEK_API_KEY?: string | undefined;
  /** The embedding model for retrieval (OpenAI's text-embedding-3-small when unset). */
  EMBEDDING_MODEL?: string | undefined;
  /** `auto`, `api`, `local` or `off`: which embedder retrieval uses (docs/knowledge.md). */
  EMBEDDINGS?: string | undefined;
}

export type Provider = 'openai' | 'anthropic' | 'google' | 'deepseek';

/**
 * Each selectable model (docs/product.md#chatbot-settings-modal), the provider that serves it and the provider's own name
 * for it. Google retired the model literally named gemini-pro; the choice maps to its current Pro
 * model. DeepSeek serves V3 as deepseek-chat.
 */
export const MODEL_ROUTES: Record<ModelChoice, { provider: Provider; name: string }> = {
  'gpt-4o': { provider: 'openai', name: 'gpt-4o' },
  'gpt-4o-mini': { provider: 'openai', name: 'gpt-4o-mini' },
  'gpt-4': { provider: 'openai', name: 'gpt-4' },
  'gpt-3.5-turbo': { provider: 'openai', name: 'gpt-3.5-turbo' },
  'claude-3-haiku-20240307': { provider: 'anthropic', name: 'claude-3-haiku-20240307' },
  'gemini-pro': { provider: 'google', name: 'gemini-2.5-pro' },
  'deepseek-v3': { provider: 'deepseek', name: 'deepseek-chat' },
};

/** Where a chatbot's model setting is served; an unknown setting falls back to the default model. */
export function modelRoute(model: string): { choice: ModelChoice; provider: Provider; name: string } {
  const choice = (MODEL_CHOICES as readonly string[]).includes(model)
    ? (model as ModelChoice)
    : (DEFAULT_MODEL as ModelChoice);
  return { choice, ...MODEL_ROUTES[choice] };
}

export function providerKey(provider: Provider, env: ModelEnv): string | undefined {
  const key = {
    openai: env.OPENAI_API_KEY,
    anthropic: env.ANTHROPIC_API_KEY,
    google: env.GOOGLE_GENAI_API_KEY,
    deepseek: env.DEEPSEEK_API_KEY,
  }[provider];
  return key?.trim() ? key.trim() : undefined;
}

export interface ChatModelOptions {
  temperature: number;
  maxTokens?: number;
  timeoutMs?: number;
}

/**
 * The langchain chat model for a chatbot's model setting, or null when no key for its provider is
 * configured (the caller then falls back to the offline answerer). The client does not retry:
 * the answer job retries with backoff instead, so a crash between tries loses nothing.
 */
export async function createChatModel(
  model: string,
  env: ModelEnv,
  options: ChatModelOptions,
): Promise<BaseChatModel | null> {
  const route = modelRoute(model);
  const apiKey = providerKey(route.provider, env);
  if (!apiKey) return null;
  const maxTokens = options.maxTokens ?? 800;
  const timeout = options.timeoutMs ?? 60_000;
  const temperature = options.temperature;
  switch (route.provider) {
    case 'openai': {
      const { ChatOpenAI } = await import('@langchain/openai');
      return new ChatOpenAI({
        model: route.name,
        apiKey,
        temperature,
        maxTokens,
        maxRetries: 0,
        timeout,
        ...(env.OPENAI_BASE_URL ? { configuration: { baseURL: env.OPENAI_BASE_URL } } : {}),
      });
    }
    case 'anthropic': {
      const { ChatAnthropic } = await import('@langchain/anthropic');
      return new ChatAnthropic({
        model: route.name,
        apiKey,
        temperature,
        maxTokens,
        maxRetries: 0,
        clientOptions: { timeout },
      });
    }
    case 'google': {
      const { ChatGoogleGenerativeAI } = await import('@langchain/google-genai');
      return new ChatGoogleGenerativeAI({
        model: route.name,
        apiKey,
        temperature,
        maxOutputTokens: maxTokens,
        maxRetries: 0,
      });
    }
    case 'deepseek': {
      const { ChatDeepSeek } = await import('@langchain/deepseek');
      return new ChatDeepSeek({
        model: route.name,
        apiKey,
        temperature,
        maxTokens,
        maxRetries: 0,
        timeout,
      });
    }
  }
}
