import { PRODUCT_NAME } from '@fanpilot/contracts';

/** The creator signup page's words (its profile image and upload texts also serve the Profile section), apart from texts.ts so that no dashboard first screen loads them (issue 39). */
export const SIGNUP_TEXT = {
  heading: 'Set up your AI chatbot',
  lead: 'Add a profile image, name your chatbot and choose your fan link. You can add knowledge and fine-tune it from your dashboard.',
  imageLabel: 'Profile image',
  imageHint: 'Square image, minimum 200x200 pixels',
  imagePreviewAlt: 'Preview of your profile image',
  uploading: 'Uploading image…',
  uploaded: 'Image uploaded',
  nameLabel: 'Chatbot name',
  namePlaceholder: 'e.g. Coach Mina',
  descriptionLabel: 'Description',
  usernameLabel: 'Username',
  usernameHint: 'Your fan link. Lowercase letters, digits and hyphens; it cannot be changed later.',
  usernameChecking: 'Checking availability…',
  usernameAvailable: (link: string) => `Available: your fan link will be ${link}`,
  usernameUnchecked: 'Could not check availability right now; it is checked again when you submit.',
  useSuggestion: (name: string) => `Use ${name}`,
  optional: '(optional)',
  descriptionPlaceholder: 'What should fans know about your chatbot?',
  submit: 'Create my chatbot',
  submitting: 'Creating…',
  errors: {
    imageRequired: 'Please upload a profile image',
    imageTooLarge: 'The image is larger than 10 MB. Please choose a smaller one.',
    notAnImage: 'This file is not an image. Please choose a PNG, JPEG, GIF or WebP image.',
    nameRequired: 'Please enter a chatbot name',
  },
  welcomeTitle: `Welcome to ${PRODUCT_NAME}!`,
  welcomeDescription: 'Your AI chatbot is ready. Taking you to your dashboard…',
  accountCreatedTitle: 'Account Created Successfully!',
  accountCreatedDescription: 'Your chatbot will be created in the dashboard due to plan limits.',
  failedTitle: 'Signup Failed',
  failedFallback: 'Please try again later',
} as const;

export const UPLOAD_TEXT = {
  failedTitle: 'Upload Failed',
  failedDescription: 'Failed to upload image. Please try again.',
  invalidUrl: 'Invalid upload URL format',
  profileUpdated: 'Profile image updated',
  profileUpdateFailedTitle: 'Upload failed',
  profileUpdateFailedDescription: 'Failed to update profile image. Please try again.',
  dashboardTooLarge: 'The image is larger than 5 MB. Please choose a smaller one.',
  processErrorTitle: 'Upload Error',
  processErrorDescription: 'Failed to process uploaded image. Please try again.',
} as const;
