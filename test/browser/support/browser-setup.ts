import { missingPrerequisites } from './browser.js';

/** Fails the whole browser run up front, with the command that fixes it, instead of skipping. */
export default function setup(): void {
  const missing = missingPrerequisites();
  if (missing.length > 0) throw new Error(`Browser tests cannot run:\n- ${missing.join('\n- ')}`);
}
