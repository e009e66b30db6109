import { browser } from 'wxt/browser';
import { defineBackground } from 'wxt/utils/define-background';
import { createBackground } from '../utils/app/background';

export default defineBackground({
  type: 'module',
  main() {
    createBackground(browser);
  },
});
