/**
 * Sign-in of the office client: a bearer token (printed by `npm run token`) pasted once per tab.
 * It lives in sessionStorage, so it ends with the tab and never reaches a URL, a log or another
 * device; the server checks it (GET /api/session) before it is kept.
 */
import { getJson, HttpError } from '../shared/api.js';
import { h } from '../shared/dom.js';
import { m } from './messages.js';
import { t } from '../shared/i18n.js';

export interface SessionClaims {
  sub: string;
  role: 'admin' | 'head' | 'jury';
  expiresAt: string | null;
}

interface StoredSession extends SessionClaims {
  token: string;
}

const STORAGE_KEY = 'gym.office.session.v1';
const TOKEN_COMMAND = 'npm run token -- --sub NAME --role admin';

export function checkToken(token: string): Promise<SessionClaims> {
  return getJson<SessionClaims>('/api/session', {}, { headers: { authorization: `Bearer ${token}` } });
}

function readStored(storage: Storage): StoredSession | null {
  try {
    const stored = JSON.parse(storage.getItem(STORAGE_KEY) ?? 'null') as StoredSession | null;
    if (!stored || typeof stored.token !== 'string') return null;
    if (stored.expiresAt !== null && Date.parse(stored.expiresAt) <= Date.now()) return null;
    return stored;
  } catch {
    return null;
  }
}

export class Session {
  private current: StoredSession | null;
  private readonly listeners = new Set<() => void>();
  /** Why the previous sign-in ended without the user signing out, shown next to the sign-in button. */
  notice: string | null = null;

  constructor(private readonly storage: Storage = sessionStorage) {
    this.current = readStored(storage);
    if (!this.current) storage.removeItem(STORAGE_KEY);
  }

  get claims(): SessionClaims | null {
    return this.current;
  }

  get isAdmin(): boolean {
    return this.current?.role === 'admin';
  }

  /** Head judge or admin: may release and reopen, and write into a released scope. */
  get isHead(): boolean {
    return this.current?.role === 'head' || this.current?.role === 'admin';
  }

  /** Headers for a call that needs (or, in AUTH_MODE=strict, may need) the token. */
  headers(): Record<string, string> {
    return this.current ? { authorization: `Bearer ${this.current.token}` } : {};
  }

  /** Returns the unsubscribe function, for views that come and go. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async signIn(token: string): Promise<SessionClaims> {
    const claims = await checkToken(token);
    this.current = { ...claims, token };
    this.storage.setItem(STORAGE_KEY, JSON.stringify(this.current));
    this.notice = null;
    this.emit();
    return claims;
  }

  signOut(notice: string | null = null): void {
    this.current = null;
    this.notice = notice;
    this.storage.removeItem(STORAGE_KEY);
    this.emit();
  }

  /** A stored token is checked again on load: the secret may have changed since the tab signed in. */
  async revalidate(): Promise<void> {
    if (!this.current) return;
    try {
      await checkToken(this.current.token);
    } catch (error) {
      if (error instanceof HttpError && error.status === 401) this.signOut(m('session.signedOut', { error: error.message }));
    }
  }

  /** A 401 from any call means the token is no longer good (expired, or the secret changed). */
  refused(error: unknown): void {
    if (error instanceof HttpError && error.status === 401 && this.current) this.signOut(m('session.signedOut', { error: error.message }));
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}

/** The header's sign-in area: who is signed in, or a button opening the paste-a-token dialog. */
export function sessionControl(session: Session): HTMLElement {
  const area = h('div', { class: 'session', role: 'group', 'aria-label': m('session.area') });
  // A password field: one line (Enter signs in) and the token is not readable over a shoulder.
  const tokenInput = h('input', {
    id: 'token-input',
    name: 'token',
    type: 'password',
    required: true,
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': 'token-hint token-error',
  });
  const error = h('p', { class: 'form-error', id: 'token-error', role: 'alert', hidden: true });
  const submit = h('button', { type: 'submit', class: 'primary', id: 'token-submit' }, m('session.signIn'));
  const cancel = h('button', { type: 'button', id: 'token-cancel' }, t('common.cancel'));
  const form = h(
    'form',
    { class: 'token-form', method: 'dialog' },
    h('h2', { id: 'sign-in-title' }, m('session.signIn')),
    h('label', { for: 'token-input' }, m('session.token')),
    tokenInput,
    h('p', { class: 'hint', id: 'token-hint' }, m('session.hintBefore'), h('code', {}, TOKEN_COMMAND), m('session.hintAfter')),
    error,
    h('div', { class: 'actions' }, cancel, submit),
  );
  const dialog = h('dialog', { class: 'sign-in-dialog', 'aria-labelledby': 'sign-in-title' }, form);
  cancel.addEventListener('click', () => dialog.close());
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const token = tokenInput.value.trim().replace(/^Bearer\s+/i, '');
    if (token === '') {
      error.hidden = false;
      error.textContent = m('session.paste');
      return;
    }
    submit.disabled = true;
    error.hidden = true;
    session
      .signIn(token)
      .then(
        () => {
          tokenInput.value = '';
          dialog.close();
        },
        (failure: unknown) => {
          error.hidden = false;
          error.textContent = m('session.refused', { error: (failure as Error).message });
        },
      )
      .finally(() => {
        submit.disabled = false;
      });
  });

  const state = h('span', { class: 'session-state' });
  area.append(state, dialog);
  const render = () => {
    const claims = session.claims;
    if (claims) {
      const signOut = h('button', { type: 'button', id: 'sign-out' }, m('session.signOut'));
      signOut.addEventListener('click', () => session.signOut());
      const until = claims.expiresAt
        ? m('session.until', { time: new Date(claims.expiresAt).toLocaleString(document.documentElement.lang) })
        : '';
      state.replaceChildren(
        h(
          'span',
          {
            class: 'who',
            id: 'signed-in-as',
            'data-role': claims.role,
            title: m('session.signedInAs', { sub: claims.sub, role: claims.role, until }),
          },
          `${claims.sub} · ${claims.role}`,
        ),
        signOut,
      );
      return;
    }
    const signIn = h('button', { type: 'button', id: 'sign-in' }, m('session.signIn'));
    signIn.addEventListener('click', () => {
      error.hidden = true;
      dialog.showModal();
      tokenInput.focus();
    });
    state.replaceChildren(session.notice ? h('span', { class: 'session-notice', role: 'status' }, session.notice) : '', signIn);
  };
  session.onChange(render);
  render();
  return area;
}
