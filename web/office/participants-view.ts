/**
 * Participants (`?view=participants`, admin): the event's entries with their did-not-start and
 * out-of-competition boxes (saved at once), a late entry, and the import of a registrations file:
 * choose the file, check the column mapping the server guessed from the headers, read the preview
 * with each row's problems, and only then import.
 */
import { h } from '../shared/dom.js';
import { t } from '../shared/i18n.js';
import { m } from './messages.js';
import type {
  CompetitionSummary,
  ParticipantEntry,
  RegistrationField,
  RegistrationProblem,
  RegistrationsBody,
  RegistrationsPreview,
} from './office-api.js';
import type { OfficeView, ViewContext } from './view.js';

const FIELDS: readonly RegistrationField[] = [
  'firstName',
  'lastName',
  'birthDate',
  'gender',
  'club',
  'competition',
  'startNumber',
  'squad',
];

/** A birth date (YYYY-MM-DD) in the page's language. */
const birthDate = (iso: string | null) =>
  iso === null
    ? ''
    : new Date(`${iso}T00:00:00Z`).toLocaleDateString(document.documentElement.lang, { timeZone: 'UTC', dateStyle: 'medium' });

const fileAsBase64 = async (file: File) => {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  return btoa(binary);
};

export function participantsView(context: ViewContext): OfficeView {
  const { api, session } = context;
  const event = context.event!;
  let competitions: CompetitionSummary[] = [];
  const competitionName = (id: number | null) =>
    id === null ? '' : (competitions.find((competition) => competition.id === id)?.name ?? m('competition.fallback', { id }));
  const competitionOptions = () =>
    competitions.map((competition) =>
      h('option', { value: competition.id }, competition.name ?? m('competition.fallback', { id: competition.id })),
    );

  // The entries.
  const listMessage = h('p', { class: 'view-message', role: 'status', id: 'entries-message' });
  const list = h('div', { class: 'table-scroll', id: 'entries' });

  async function setFlag(entry: ParticipantEntry, flag: 'didNotStart' | 'outOfCompetition', box: HTMLInputElement): Promise<void> {
    box.disabled = true;
    try {
      const saved = await api.setEntryFlags(event.id, entry.scoreId, { [flag]: box.checked });
      entry[flag] = saved[flag];
      listMessage.textContent = m(`participants.saved.${flag}.${saved[flag]}`, {
        name: `${entry.firstName ?? ''} ${entry.lastName ?? ''}`.trim(),
      });
    } catch (error) {
      box.checked = entry[flag];
      listMessage.textContent = m('participants.flagFailed', { error: (error as Error).message });
    } finally {
      box.disabled = false;
    }
  }

  function flagBox(entry: ParticipantEntry, flag: 'didNotStart' | 'outOfCompetition'): HTMLElement {
    const box = h('input', {
      type: 'checkbox',
      class: `entry-${flag}`,
      checked: entry[flag],
      'aria-label': `${m(`participants.${flag}`)}: ${entry.firstName ?? ''} ${entry.lastName ?? ''}`,
    });
    box.addEventListener('change', () => void setFlag(entry, flag, box));
    return h('td', { class: 'check-cell' }, box);
  }

  async function loadEntries(): Promise<void> {
    try {
      const { entries } = await api.participants(event.id);
      list.replaceChildren(
        entries.length === 0
          ? h('p', { class: 'hint' }, m('participants.none'))
          : h(
              'table',
              { class: 'data-table entries-table' },
              h(
                'thead',
                {},
                h(
                  'tr',
                  {},
                  ...[
                    m('sheets.number'),
                    m('sheets.name'),
                    m('participants.birthDate'),
                    m('sheets.club'),
                    t('common.competition'),
                    t('common.squad'),
                  ].map((label) => h('th', {}, label)),
                  h('th', { title: m('participants.didNotStart') }, m('participants.dns')),
                  h('th', { title: m('participants.outOfCompetition') }, m('participants.oc')),
                ),
              ),
              h(
                'tbody',
                {},
                ...entries.map((entry) =>
                  h(
                    'tr',
                    { 'data-score-id': entry.scoreId },
                    h('td', {}, entry.startNumber ?? ''),
                    h('td', { class: 'name' }, `${entry.lastName ?? ''}, ${entry.firstName ?? ''}`),
                    h('td', {}, birthDate(entry.birthDate)),
                    h('td', {}, entry.clubName ?? ''),
                    h('td', {}, entry.competitionName ?? competitionName(entry.competitionId)),
                    h('td', {}, entry.squadName ?? ''),
                    flagBox(entry, 'didNotStart'),
                    flagBox(entry, 'outOfCompetition'),
                  ),
                ),
              ),
            ),
      );
      listMessage.textContent = '';
    } catch (error) {
      listMessage.textContent = m('participants.loadFailed', { error: (error as Error).message });
    }
  }

  // The late entry.
  const input = (id: string, attributes: Record<string, string | number> = {}) =>
    h('input', { id, type: 'text', autocomplete: 'off', ...attributes });
  const lateCompetition = h('select', { id: 'late-competition' });
  const lateFirst = input('late-first', { maxlength: 100 });
  const lateLast = input('late-last', { maxlength: 100 });
  const lateBorn = input('late-born', { maxlength: 20, placeholder: m('participants.datePlaceholder') });
  const lateGender = h(
    'select',
    { id: 'late-gender' },
    h('option', { value: '' }, '–'),
    h('option', { value: 'w' }, m('participants.female')),
    h('option', { value: 'm' }, m('participants.male')),
  );
  const lateClub = input('late-club', { maxlength: 100 });
  const lateNumber = input('late-number', { maxlength: 20 });
  const lateSquad = input('late-squad', { maxlength: 5 });
  const lateMessage = h('p', { class: 'view-message', role: 'status', id: 'late-message' });
  const lateForm = h(
    'form',
    { class: 'late-entry', id: 'late-entry', novalidate: true },
    ...(
      [
        [t('common.competition'), lateCompetition],
        [m('participants.firstName'), lateFirst],
        [m('participants.lastName'), lateLast],
        [m('participants.birthDate'), lateBorn],
        [m('participants.gender'), lateGender],
        [m('sheets.club'), lateClub],
        [m('participants.startNumber'), lateNumber],
        [t('common.squad'), lateSquad],
      ] as const
    ).map(([label, control]) => h('div', { class: 'picker' }, h('label', { for: control.id }, label), control)),
    h('button', { type: 'submit', class: 'primary', id: 'late-submit' }, m('participants.enter')),
  );
  lateForm.addEventListener('submit', (submitted) => {
    submitted.preventDefault();
    void (async () => {
      const optional = (value: string) => (value.trim() === '' ? undefined : value.trim());
      try {
        const entered = await api.lateEntry(event.id, {
          competitionId: Number(lateCompetition.value),
          firstName: lateFirst.value.trim(),
          lastName: lateLast.value.trim(),
          birthDate: optional(lateBorn.value),
          gender: optional(lateGender.value),
          clubName: optional(lateClub.value),
          startNumber: optional(lateNumber.value),
          squadName: optional(lateSquad.value),
        });
        const name = `${lateFirst.value.trim()} ${lateLast.value.trim()}`;
        lateMessage.textContent = m(entered.created ? 'participants.entered' : 'participants.enteredAlready', { name });
        if (entered.created) for (const control of [lateFirst, lateLast, lateBorn, lateNumber]) control.value = '';
        await loadEntries();
      } catch (error) {
        lateMessage.textContent = m('participants.enterFailed', { error: problemText((error as Error).message) });
      }
    })();
  });

  // The import.
  const file = h('input', {
    type: 'file',
    id: 'import-file',
    accept: '.csv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  });
  const defaultCompetition = h('select', { id: 'import-competition' });
  const mappingHost = h('fieldset', { class: 'import-mapping', id: 'import-mapping', hidden: true });
  const previewHost = h('div', { class: 'table-scroll', id: 'import-preview' });
  const importMessage = h('p', { class: 'view-message', role: 'status', id: 'import-message' });
  const confirm = h('button', { type: 'button', class: 'primary', id: 'import-confirm', disabled: true }, m('participants.import'));
  let content: string | null = null;
  let preview: RegistrationsPreview | null = null;

  const body = (withMapping: boolean): RegistrationsBody => ({
    content: content!,
    ...(defaultCompetition.value === '' ? {} : { defaultCompetitionId: Number(defaultCompetition.value) }),
    ...(withMapping
      ? {
          mapping: Object.fromEntries(
            FIELDS.map((field) => {
              const select = mappingHost.querySelector<HTMLSelectElement>(`select[data-field="${field}"]`);
              return [field, select && select.value !== '' ? Number(select.value) : null];
            }),
          ),
        }
      : {}),
  });

  function showMapping(read: RegistrationsPreview): void {
    mappingHost.hidden = false;
    mappingHost.replaceChildren(
      h('legend', {}, m('participants.mapping')),
      ...FIELDS.map((field) => {
        const select = h(
          'select',
          { id: `map-${field}`, 'data-field': field },
          h('option', { value: '' }, m('participants.notInFile')),
          ...read.headers.map((header, column) =>
            h(
              'option',
              { value: column, selected: read.mapping[field] === column },
              header || m('participants.column', { column: column + 1 }),
            ),
          ),
        );
        select.addEventListener('change', () => void runPreview(true));
        return h('div', { class: 'picker' }, h('label', { for: select.id }, m(`participants.field.${field}`)), select);
      }),
    );
  }

  function showPreview(read: RegistrationsPreview): void {
    previewHost.replaceChildren(
      h(
        'table',
        { class: 'data-table preview-table' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ...[
              m('participants.line'),
              m('sheets.name'),
              m('participants.birthDate'),
              m('sheets.club'),
              t('common.competition'),
              t('common.squad'),
              m('participants.status'),
            ].map((label) => h('th', {}, label)),
          ),
        ),
        h(
          'tbody',
          {},
          ...read.rows.map((row) =>
            h(
              'tr',
              { 'data-line': row.line, 'data-status': row.status },
              h('td', {}, row.line),
              h('td', { class: 'name' }, `${row.lastName}, ${row.firstName}`),
              h('td', {}, birthDate(row.birthDate)),
              h('td', {}, row.clubName ?? ''),
              h('td', {}, competitionName(row.competitionId)),
              h('td', {}, row.squadName ?? ''),
              h(
                'td',
                { class: 'import-status' },
                row.problems.length === 0 ? m(`participants.status.${row.status}`) : row.problems.map(problemName).join('; '),
              ),
            ),
          ),
        ),
      ),
    );
    const toImport = read.counts.new + read.counts.newEntry;
    importMessage.textContent = m('participants.previewCounts', { ...read.counts });
    confirm.disabled = toImport === 0;
    confirm.textContent = toImport === 1 ? m('participants.importRow') : m('participants.importRows', { count: toImport });
  }

  async function runPreview(withMapping: boolean): Promise<void> {
    if (content === null) return;
    confirm.disabled = true;
    try {
      const previous = preview?.headers;
      preview = await api.previewRegistrations(event.id, body(withMapping));
      // Another file with the same headers keeps the mapping the office chose.
      if (!withMapping && JSON.stringify(previous) === JSON.stringify(preview.headers)) return await runPreview(true);
      if (!withMapping) showMapping(preview);
      showPreview(preview);
    } catch (error) {
      preview = null;
      previewHost.replaceChildren();
      importMessage.textContent = m('participants.previewFailed', { error: (error as Error).message });
    }
  }

  file.addEventListener('change', () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    void (async () => {
      content = await fileAsBase64(chosen);
      await runPreview(false);
    })();
  });
  defaultCompetition.addEventListener('change', () => void runPreview(!mappingHost.hidden));
  confirm.addEventListener('click', () => {
    if (preview === null) return;
    void (async () => {
      confirm.disabled = true;
      try {
        const imported = await api.importRegistrations(event.id, body(true));
        // The preview read again shows what is left to import; the message says what was imported.
        await runPreview(true);
        importMessage.textContent = m('participants.imported', { ...imported });
        await loadEntries();
      } catch (error) {
        importMessage.textContent = m('participants.importFailed', { error: (error as Error).message });
      }
    })();
  });

  void api.competitions(event.id).then(
    (loaded) => {
      competitions = loaded;
      lateCompetition.replaceChildren(...competitionOptions());
      defaultCompetition.replaceChildren(h('option', { value: '' }, m('participants.noDefault')), ...competitionOptions());
      void loadEntries();
    },
    (error: unknown) => {
      listMessage.textContent = m('participants.loadFailed', { error: (error as Error).message });
    },
  );

  const element = h(
    'section',
    { class: 'participants-view' },
    h('h2', {}, m('participants.title', { event: event.name })),
    h(
      'section',
      { class: 'panel', 'aria-labelledby': 'import-title' },
      h('h3', { id: 'import-title' }, m('participants.importTitle')),
      h('p', { class: 'hint' }, m('participants.importIntro')),
      h(
        'div',
        { class: 'rot-generator' },
        h('div', { class: 'picker' }, h('label', { for: file.id }, m('participants.file')), file),
        h('div', { class: 'picker' }, h('label', { for: defaultCompetition.id }, m('participants.defaultCompetition')), defaultCompetition),
      ),
      mappingHost,
      importMessage,
      previewHost,
      confirm,
    ),
    h(
      'section',
      { class: 'panel', 'aria-labelledby': 'late-title' },
      h('h3', { id: 'late-title' }, m('participants.lateTitle')),
      h('p', { class: 'hint' }, m('participants.lateIntro')),
      lateForm,
      lateMessage,
    ),
    h(
      'section',
      { class: 'panel', 'aria-labelledby': 'entries-title' },
      h('h3', { id: 'entries-title' }, m('participants.entries')),
      listMessage,
      list,
    ),
  );
  // The list needs an admin token: read it again once the office signs in.
  const unsubscribe = session.onChange(() => void loadEntries());
  return { element, dispose: unsubscribe };
}

const problemName = (problem: RegistrationProblem) => m(`participants.problem.${problem}`);

/** The server's `body: bad-birth-date, …` as the office reads it. */
function problemText(message: string): string {
  const match = /^body: ([a-z-]+(?:, [a-z-]+)*)$/.exec(message);
  if (!match) return message;
  return match[1]!
    .split(', ')
    .map((problem) => problemName(problem as RegistrationProblem))
    .join('; ');
}
