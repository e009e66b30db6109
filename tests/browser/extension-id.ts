export const EXTENSION_ID = 'kiaoalgfnmommbapmfobekncgcknbolb';
