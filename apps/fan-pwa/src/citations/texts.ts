/** The texts of the passage viewer (loaded with it, not with the first screen). */
export const citationTexts = {
  heading: 'Source',
  page: (page: number) => `Page ${page}`,
  loading: 'Loading the passage…',
  failed: 'This passage could not be opened. Please try again.',
  quoted: 'The passage the answer is based on',
  download: 'Download the file',
  close: 'Close',
} as const;
