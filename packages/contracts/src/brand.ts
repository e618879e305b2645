// No zod here: the fan app's first screen imports this (its CSP forbids the eval zod probes with).

/**
 * The name fans see for a creator (the fan app's header, the installed app's name): the chatbot's
 * name the creator chose at onboarding, else the creator's own name.
 */
export function brandNameOf(creator: { name: string; chatbotName?: string | null | undefined }): string {
  return creator.chatbotName?.trim() || creator.name;
}
