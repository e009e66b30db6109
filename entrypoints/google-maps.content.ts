import { defineContentScript } from 'wxt/utils/define-content-script';

export default defineContentScript({
  matches: ['https://www.google.com/maps/*'],
  runAt: 'document_idle',
  main() {},
});
