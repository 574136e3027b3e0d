/**
 * The judge's name, asked for once per browser and sent with every save as `X-Judge-Name`
 * (percent-encoded, since header values are Latin-1): without a token it is who the audit record
 * names. It identifies, it does not authenticate: it grants no role.
 */
import { judgeCredential } from './judge-credential.js';

const STORAGE_KEY = 'gym.jury.judgeName.v1';
const MAX_LENGTH = 100;

/** The name a judge credential carries, else the one typed in this browser. */
export function judgeName(): string | null {
  const credentialName = judgeCredential()?.name;
  if (credentialName) return credentialName;
  try {
    const stored = localStorage.getItem(STORAGE_KEY)?.trim();
    return stored ? stored : null;
  } catch {
    return null;
  }
}

export function setJudgeName(name: string): void {
  try {
    const clean = name.trim().slice(0, MAX_LENGTH);
    if (clean) localStorage.setItem(STORAGE_KEY, clean);
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage refused (private mode): saves go without a name.
  }
}

/** A credential's token authorises the save and names the judge; without one the typed name does. */
export function judgeNameHeaders(): Record<string, string> {
  const token = judgeCredential()?.token;
  if (token) return { authorization: `Bearer ${token}` };
  const name = judgeName();
  return name === null ? {} : { 'x-judge-name': encodeURIComponent(name) };
}
