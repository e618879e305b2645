/** docs/product.md#create-ai-chatbot: URL rows of the Create AI Chatbot form. Blank rows are dropped; one row always remains. */
export function removeUrlRow(rows: readonly string[], index: number): string[] {
  const next = rows.filter((_, i) => i !== index);
  return next.length > 0 ? next : [''];
}

/** The URLs to send: trimmed, blanks dropped. */
export function urlsToSend(rows: readonly string[]): string[] {
  return rows.map((row) => row.trim()).filter(Boolean);
}
