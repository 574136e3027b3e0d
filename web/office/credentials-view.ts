/**
 * Judge credentials (`?view=credentials`, issue 45, admin): per apparatus, or per E-judge field of
 * its panel, a QR code that opens the jury portal preselected and carries a token for that scope
 * until the end of the competition day. The server keeps no token, so a code shows only here,
 * right after issuing (print the page then); a lost one is revoked and issued anew.
 */
import type { DisciplineField, DisciplineSummary } from '../shared/api.js';
import { h } from '../shared/dom.js';
import { t } from '../shared/i18n.js';
import { m } from './messages.js';
import type { IssuedCredential, JudgeCredential } from './office-api.js';
import { qrCode } from './qr.js';
import type { OfficeView, ViewContext } from './view.js';

const dateTime = (iso: string) => new Date(iso).toLocaleString(document.documentElement.lang, { dateStyle: 'short', timeStyle: 'short' });

export function credentialsView(context: ViewContext): OfficeView {
  const { api } = context;
  const event = context.event!;
  const apparatusSelect = h('select', { id: 'cred-apparatus' });
  const fieldSelect = h('select', { id: 'cred-field' });
  const judgeInput = h('input', {
    type: 'text',
    id: 'cred-judge',
    maxlength: 100,
    autocomplete: 'off',
    placeholder: m('cred.judgeDefault'),
  });
  const issue = h('button', { type: 'submit', id: 'cred-issue' }, m('cred.issue'));
  const issueAll = h('button', { type: 'button', id: 'cred-issue-all' }, m('cred.issueAll'));
  const form = h(
    'form',
    { class: 'cred-form', id: 'cred-form' },
    h('div', { class: 'picker' }, h('label', { for: apparatusSelect.id }, t('common.device')), apparatusSelect),
    h('div', { class: 'picker' }, h('label', { for: fieldSelect.id }, m('cred.field')), fieldSelect),
    h('div', { class: 'picker' }, h('label', { for: judgeInput.id }, m('cred.judge')), judgeInput),
    issue,
    issueAll,
  );
  const message = h('p', { class: 'view-message', role: 'status', id: 'cred-message' });
  const fresh = h('div', { class: 'cred-cards', id: 'cred-cards' });
  const listHost = h('div', { class: 'table-scroll', id: 'cred-list' });
  let apparatus: DisciplineSummary[] = [];
  let credentials: JudgeCredential[] = [];
  const fieldNames = new Map<number, string>();

  const nameOf = (discipline: DisciplineSummary) => discipline.displayName || discipline.name;

  async function showFields(): Promise<void> {
    const discipline = apparatus.find((candidate) => candidate.id === Number(apparatusSelect.value));
    const judgeFieldIds = [...(discipline?.panel?.judgeFieldIds ?? []), ...(discipline?.panel?.reference?.fieldIds ?? [])];
    let fields: DisciplineField[] = [];
    if (discipline && judgeFieldIds.length > 0) fields = await api.disciplineFields(discipline.id).catch(() => []);
    for (const field of fields) fieldNames.set(field.id, field.shortName ?? field.name ?? `#${field.id}`);
    fieldSelect.replaceChildren(
      h('option', { value: '' }, m('cred.wholeApparatus')),
      ...judgeFieldIds.map((id) => h('option', { value: id }, fieldNames.get(id) ?? `#${id}`)),
    );
    fieldSelect.disabled = judgeFieldIds.length === 0;
  }

  function card(answer: IssuedCredential): HTMLElement {
    const { credential, portalUrl } = answer;
    const title = [credential.disciplineName, credential.fieldId === null ? null : fieldNames.get(credential.fieldId)]
      .filter(Boolean)
      .join(' · ');
    return h(
      'figure',
      { class: 'cred-card', 'data-credential-id': credential.id },
      qrCode(portalUrl, m('cred.qrLabel', { apparatus: title })),
      h(
        'figcaption',
        {},
        h('strong', {}, title),
        h('span', {}, credential.judgeName),
        h('span', { class: 'hint' }, m('cred.validUntil', { time: dateTime(credential.expiresAt) })),
        h('a', { href: portalUrl, target: '_blank', rel: 'noopener', class: 'cred-link' }, m('cred.open')),
      ),
    );
  }

  function renderList(): void {
    if (credentials.length === 0) {
      listHost.replaceChildren(h('p', { class: 'hint' }, m('cred.none')));
      return;
    }
    listHost.replaceChildren(
      h(
        'table',
        { class: 'cred-table data-table' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ...[t('common.device'), m('cred.field'), m('cred.judge'), m('cred.issued'), m('cred.expires'), m('cred.state'), ''].map(
              (label) => h('th', {}, label),
            ),
          ),
        ),
        h(
          'tbody',
          {},
          ...credentials.map((credential) => {
            const revoke = h('button', { type: 'button', class: 'cred-revoke', disabled: !credential.active }, m('cred.revoke'));
            revoke.addEventListener('click', () => void revokeOne(credential));
            const state = credential.revokedAt ? m('cred.revoked') : credential.active ? m('cred.active') : m('cred.expired');
            return h(
              'tr',
              { 'data-credential-id': credential.id, 'data-active': String(credential.active) },
              h('td', {}, credential.disciplineName ?? `#${credential.disciplineId}`),
              h(
                'td',
                {},
                credential.fieldId === null ? m('cred.wholeApparatus') : (fieldNames.get(credential.fieldId) ?? `#${credential.fieldId}`),
              ),
              h('td', {}, credential.judgeName),
              h('td', {}, dateTime(credential.issuedAt)),
              h('td', {}, dateTime(credential.expiresAt)),
              h('td', { class: 'cred-state' }, state),
              h('td', {}, revoke),
            );
          }),
        ),
      ),
    );
  }

  async function loadList(): Promise<void> {
    try {
      credentials = await api.judgeCredentials(event.id);
    } catch (error) {
      message.textContent = m('cred.loadFailed', { error: (error as Error).message });
    }
    renderList();
  }

  async function issueFor(disciplineId: number, fieldId: number | null, judgeName: string): Promise<boolean> {
    try {
      const answer = await api.issueCredential(event.id, {
        disciplineId,
        ...(fieldId === null ? {} : { fieldId }),
        ...(judgeName ? { judgeName } : {}),
      });
      fresh.append(card(answer));
      return true;
    } catch (error) {
      message.textContent = m('cred.issueFailed', { error: (error as Error).message });
      return false;
    }
  }

  async function revokeOne(credential: JudgeCredential): Promise<void> {
    try {
      await api.revokeCredential(event.id, credential.id);
      fresh.querySelector(`[data-credential-id="${credential.id}"]`)?.remove();
      message.textContent = m('cred.revokedOne', { judge: credential.judgeName });
    } catch (error) {
      message.textContent = m('cred.revokeFailed', { error: (error as Error).message });
    }
    await loadList();
  }

  apparatusSelect.addEventListener('change', () => void showFields());
  form.addEventListener('submit', (submitted) => {
    submitted.preventDefault();
    const disciplineId = Number(apparatusSelect.value);
    if (!disciplineId) return;
    void (async () => {
      if (await issueFor(disciplineId, fieldSelect.value ? Number(fieldSelect.value) : null, judgeInput.value.trim()))
        message.textContent = m('cred.issuedOne');
      judgeInput.value = '';
      await loadList();
    })();
  });
  issueAll.addEventListener('click', () => {
    void (async () => {
      let count = 0;
      for (const discipline of apparatus) if (await issueFor(discipline.id, null, '')) count += 1;
      if (count > 0) message.textContent = m('cred.issuedAll', { count });
      await loadList();
    })();
  });

  async function load(): Promise<void> {
    try {
      const [catalog, competitions] = await Promise.all([api.disciplines(), api.competitions(event.id)]);
      const planned = new Set(competitions.flatMap((competition) => competition.disciplineIds));
      // The event's apparatus as its score rows plan them; every discipline while none does (the portal's rule).
      apparatus = planned.size === 0 ? catalog : catalog.filter((discipline) => planned.has(discipline.id));
    } catch (error) {
      message.textContent = m('cred.loadFailed', { error: (error as Error).message });
    }
    apparatusSelect.replaceChildren(...apparatus.map((discipline) => h('option', { value: discipline.id }, nameOf(discipline))));
    await showFields();
    await loadList();
  }

  const element = h(
    'section',
    { class: 'credentials-view' },
    h('h2', {}, m('cred.title', { event: event.name })),
    h('p', { class: 'hint' }, m('cred.intro')),
    form,
    message,
    fresh,
    h('h3', {}, m('cred.listTitle')),
    listHost,
  );
  void load();
  return { element };
}
