import type { StoredSource } from '@fanpilot/contracts';
import { type AnswerContext, type AnswerRequest, buildAnswerContext, type Correction } from '@fanpilot/core';
import type { Database } from '@fanpilot/db';
import { embedderFor, embeddingsMode, type RetrievedChunk, sentenceSimilarity } from '@fanpilot/knowledge';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { Kysely } from 'kysely';
import { citationFor, citedSourceKey } from './citations.ts';
import { citeUsed, withoutMarkers } from './cite.ts';
import { answerContextProviders } from './context.ts';
import { createChatModel, type ModelEnv, modelRoute, providerKey } from './models.ts';
import { offlineAnswerByMeaning } from './offline.ts';
import {
  type AnswerVoice,
  buildPrompt,
  contentText,
  type KnowledgeExcerpt,
  type PromptMessage,
  withoutGapTag,
} from './prompt.ts';

// One answer to one question, whoever asked it (a fan through the answer job, the creator's draft,
// the creator in "Try your chatbot"): answer() reads the answer context (core's buildAnswerContext:
// the conversation, the fan's memory, a correction of the creator's, the retrieved knowledge), then
// composeAnswer turns it into a reply with the model (or the embedded answerer), with the citations
// of what the reply used, told through its channel as it is written. Nothing is stored here.

/** The chatbot settings an answer needs. */
export interface AnsweringChatbot {
  id: string;
  name: string;
  instructions: string;
  model: string;
  temperature: number;
  initial_messages: string[];
}

/**
 * Where the reply goes as it is written (docs/decisions/0078). Text now: `draft` is told the reply so
 * far (markers left out) and must not throw. Another output (voice) is another channel.
 */
export interface ReplyChannel {
  kind: 'text';
  draft?: (text: string) => void;
}

export const textChannel = (draft?: (text: string) => void): ReplyChannel =>
  draft ? { kind: 'text', draft } : { kind: 'text' };

export interface AnswerSetup {
  db: Kysely<Database>;
  env: ModelEnv;
  chatbot: AnsweringChatbot;
  /** The characters of knowledge that go into the prompt (KNOWLEDGE_BUDGET_CHARS). */
  knowledgeBudgetChars?: number;
  /** How many earlier messages of the conversation go into the prompt. */
  historyLimit?: number;
  timeoutMs?: number;
}

export interface ReplyOptions {
  /**
   * 'assistant' (the default): the chatbot's answer to a fan, quoting and citing the material.
   * 'creator': a draft of the creator's own reply (docs/decisions/0075), first person, unattributed.
   */
  voice?: AnswerVoice;
  channel?: ReplyChannel;
}

/** The one way into an answer: the context read by its providers, then composed into a reply. */
export async function answer(
  setup: AnswerSetup,
  request: AnswerRequest,
  reply: ReplyOptions = {},
): Promise<ComposedAnswer> {
  const { db, env, chatbot } = setup;
  const embedder = embedderFor(env);
  const model = await createChatModel(chatbot.model, env, {
    temperature: chatbot.temperature,
    ...(setup.timeoutMs ? { timeoutMs: setup.timeoutMs } : {}),
  });
  const context = await buildAnswerContext<RetrievedChunk>(
    db,
    request,
    answerContextProviders({
      embedder,
      model,
      chatbotId: chatbot.id,
      ...(setup.historyLimit ? { historyLimit: setup.historyLimit } : {}),
      ...(setup.knowledgeBudgetChars ? { knowledgeBudgetChars: setup.knowledgeBudgetChars } : {}),
    }),
  );
  return composeAnswer({
    chatbot,
    model,
    context,
    ...reply,
    // The embedded answerer reads meaning with the local encoder unless vectors are off (record 0080).
    similarity: embeddingsMode(env) === 'off' ? null : localSentenceSimilarity(),
  });
}

export interface ComposeInput {
  chatbot: AnsweringChatbot;
  /** The chatbot's model; null: the embedded answerer. */
  model: BaseChatModel | null;
  context: AnswerContext<RetrievedChunk>;
  voice?: AnswerVoice;
  channel?: ReplyChannel;
  /** The embedded answerer's sentence similarity (the local encoder); null or unset: words only. */
  similarity?: ReturnType<typeof sentenceSimilarity> | null;
}

/** Who really answers for a chatbot: its model when a key is configured, else the embedded answerer. */
export interface Answerer {
  /** The chatbot's model setting. */
  model: string;
  /** The provider's own name for it. */
  providerModel: string;
  provider: string;
  /** A key for the provider is configured: the model answers. False: the embedded answerer does. */
  configured: boolean;
  /** The environment variable that would turn the model on. */
  keyVariable: string;
}

const KEY_VARIABLES = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  google: 'GOOGLE_GENAI_API_KEY',
  deepseek: 'DEEPSEEK_API_KEY',
} as const;

export function answererFor(model: string, env: ModelEnv): Answerer {
  const route = modelRoute(model);
  return {
    model: route.choice,
    providerModel: route.name,
    provider: route.provider,
    configured: providerKey(route.provider, env) !== undefined,
    keyVariable: KEY_VARIABLES[route.provider],
  };
}

export interface ComposedAnswer {
  body: string;
  /** Exactly the sources the answer used; [k] in `body` cites sources[k - 1]. */
  sources: StoredSource[];
  /** The answer rests on nothing of the creator's (the material does not cover the question). */
  gap: boolean;
  /**
   * The answer tells the fan the material does not cover the question and the creator will see it
   * (the model's not-in-knowledge tag, or the embedded answerer's fallback): the question waits for
   * the creator.
   */
  handOver: boolean;
  /** The passages retrieved for the question, best first (what the model was shown). */
  passages: RetrievedChunk[];
  /** The creator's correction that answered, if one matched the question. */
  correction: Correction | null;
  /** The model that wrote the answer; null: the embedded answerer. */
  model: string | null;
}

/** The citation of a correction: the creator's own answer (nothing to open). */
const correctionSource = (creatorName: string): StoredSource => ({
  title: `${creatorName}'s own answer`,
  source: `Answer by ${creatorName}`,
});

/** The local encoder's sentence similarity for the embedded answerer (one per process). */
let localSimilarity: ReturnType<typeof sentenceSimilarity> | null = null;
const localSentenceSimilarity = () => {
  const local = embedderFor({ EMBEDDINGS: 'local' });
  if (!local) return null;
  localSimilarity ??= sentenceSimilarity(local);
  return localSimilarity;
};

const CORRECTION_KEY = 'correction';
const sourceKey = citedSourceKey;

export async function composeAnswer(input: ComposeInput): Promise<ComposedAnswer> {
  const { chatbot, model, context } = input;
  const { creatorName, question, passages, correction } = context;
  const excerpts: { excerpt: KnowledgeExcerpt; key: string; chunk: RetrievedChunk | null }[] = [
    ...(correction
      ? [
          {
            excerpt: {
              title: `${creatorName}'s own answer to “${correction.question}”`,
              source: '',
              content: correction.answer,
              authoritative: true,
            },
            key: CORRECTION_KEY,
            chunk: null,
          },
        ]
      : []),
    ...passages.map((c) => ({
      excerpt: { title: c.title, source: c.source, content: c.content },
      key: sourceKey(c),
      chunk: c,
    })),
  ];
  const sourceFor = (key: string): StoredSource => {
    if (key === CORRECTION_KEY) return correctionSource(creatorName);
    const chunk = excerpts.find((e) => e.key === key)!.chunk!;
    return citationFor(chunk, question);
  };

  if (!model) {
    // The embedded answerer: the creator's correction as it is, else their material quoted.
    if (correction) {
      return {
        body: `${correction.answer} [1]`,
        sources: [correctionSource(creatorName)],
        gap: false,
        handOver: false,
        passages,
        correction,
        model: null,
      };
    }
    // By meaning, with the local encoder's sentence similarity (record 0080) when `answer` gave one.
    const quoted = await offlineAnswerByMeaning(
      creatorName,
      question,
      passages.map((c) => ({ title: c.title, source: c.source, content: c.content })),
      input.similarity ?? null,
      input.voice,
    );
    const chunk = quoted.from === null ? undefined : passages[quoted.from];
    return {
      // The quote's one attribution is its citation (the fan's chip: the page's title, linking to
      // it), marked [1] like a model's answer; the text never repeats the title.
      body: chunk ? `${quoted.text} [1]` : quoted.text,
      sources: chunk ? [citationFor(chunk, question)] : [],
      gap: !chunk,
      handOver: !chunk,
      passages,
      correction: null,
      model: null,
    };
  }

  const prompt = buildPrompt({
    instructions: chatbot.instructions,
    chatbotName: chatbot.name,
    creatorName,
    initialMessages: chatbot.initial_messages,
    history: context.history,
    memory: context.memory.map((m) => m.text),
    question,
    attachment: context.attachment,
    knowledge: excerpts.map((e) => e.excerpt),
    ...(input.voice ? { voice: input.voice } : {}),
  });
  let written = '';
  // langchain makes its message objects from [role, text] pairs.
  const messages = prompt.map((m): [PromptMessage['role'], string] => [m.role, m.content]);
  for await (const chunk of await model.stream(messages)) {
    written += contentText(chunk.content);
    input.channel?.draft?.(withoutMarkers(withoutGapTag(written).text));
  }
  const tagged = withoutGapTag(written.trim());
  if (!tagged.text) throw new Error('The model returned an empty answer');
  const route = modelRoute(chatbot.model);
  // Material the model said does not cover the question is not cited.
  if (tagged.gap || excerpts.length === 0) {
    const body = withoutMarkers(tagged.text);
    if (!body) throw new Error('The model returned an empty answer');
    return { body, sources: [], gap: true, handOver: tagged.gap, passages, correction, model: route.name };
  }
  const cited = citeUsed(tagged.text, (n) => excerpts[n - 1]?.key);
  // No marker: the single best source (the correction when one matched, else the best passage).
  const keys = cited.sources.length > 0 ? cited.sources : [excerpts[0]!.key];
  return {
    body: cited.text,
    sources: keys.map(sourceFor),
    gap: false,
    handOver: false,
    passages,
    correction,
    model: route.name,
  };
}
