/**
 * A judge credential (issue 45) as the jury portal holds it: the token arrives in the address's
 * fragment (`#token=`, never sent to a server), is kept for this tab only (sessionStorage: another
 * tab or the next day's browser does not inherit it) and leaves the address bar at once, so a
 * screenshot or a shared link does not carry it. Saves send it as `Authorization: Bearer`.
 */
const STORAGE_KEY = 'gym.jury.credential.v1';

export interface JudgeScope {
  credentialId: number;
  eventId: number;
  disciplineId: number;
  fieldId: number | null;
}

export interface JudgeCredential {
  token: string;
  /** The judge's name the office issued it for (the token's subject). */
  name: string | null;
  scope: JudgeScope | null;
}

/** The token's claims, read only to name the judge and the apparatus; the server checks the signature. */
function claimsOf(token: string): { sub?: unknown; judge?: unknown } | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(json, (char) => char.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes)) as { sub?: unknown; judge?: unknown };
  } catch {
    return null;
  }
}

function credentialOf(token: string): JudgeCredential | null {
  const claims = claimsOf(token);
  if (!claims) return null;
  const judge = claims.judge as Partial<JudgeScope> | undefined;
  const scope =
    judge && typeof judge.eventId === 'number' && typeof judge.disciplineId === 'number'
      ? {
          credentialId: Number(judge.credentialId),
          eventId: judge.eventId,
          disciplineId: judge.disciplineId,
          fieldId: typeof judge.fieldId === 'number' ? judge.fieldId : null,
        }
      : null;
  return { token, name: typeof claims.sub === 'string' && claims.sub.trim() ? claims.sub : null, scope };
}

/** Takes a `#token=` from the address into this tab's storage and out of the address bar. */
export function captureJudgeCredential(): void {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const token = fragment.get('token');
  if (token === null) return;
  fragment.delete('token');
  const url = new URL(window.location.href);
  url.hash = fragment.toString();
  window.history.replaceState(null, '', url);
  if (!credentialOf(token)) return;
  try {
    sessionStorage.setItem(STORAGE_KEY, token);
  } catch {
    // Storage refused (private mode): nothing kept, saves go without the token.
  }
}

export function judgeCredential(): JudgeCredential | null {
  try {
    const token = sessionStorage.getItem(STORAGE_KEY);
    return token ? credentialOf(token) : null;
  } catch {
    return null;
  }
}

/** The portal follows the rotation plan on this apparatus of this event. */
export function boundApparatus(eventId: number | null): number | null {
  const scope = judgeCredential()?.scope;
  return scope && scope.eventId === eventId ? scope.disciplineId : null;
}
