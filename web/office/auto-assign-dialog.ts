/**
 * The auto-assign dialog of spec "Auto-assign dialog steps": criteria → (generate) proposals →
 * (apply) applied → (close) the squad page refreshes; "back" returns from the proposals to the
 * criteria with every value as it was, because the criteria form is only hidden, never rebuilt.
 */
import {
  NAMING_PREFIXES,
  SQUAD_COLORS,
  SQUAD_CRITERIA_DEFAULTS,
  SQUAD_CRITERIA_LIMITS,
  type GenderGroup,
  type NamingPrefix,
} from '../../src/domain/squad-planner.js';
import type { EventSummary } from '../shared/api.js';
import { h } from '../shared/dom.js';
import { t } from '../shared/i18n.js';
import { m } from './messages.js';
import type { GenerateResponse, OfficeApi, SquadCriteria, SquadProposal } from './office-api.js';
import { countOf, personName } from './people.js';

export type AutoAssignStep = 'criteria' | 'proposals' | 'applied';

type NumberKey = 'maxParticipantsPerSquad' | 'numberOfProposals' | 'breakCount';
type FlagKey = 'separateGenders' | 'keepClubsTogether' | 'groupByAgeCategory' | 'separateCompetitions';

const NUMBER_FIELDS: ReadonlyArray<{ key: NumberKey; label: string }> = [
  { key: 'maxParticipantsPerSquad', label: m('aa.maxPer') },
  { key: 'numberOfProposals', label: m('aa.proposals') },
  { key: 'breakCount', label: m('aa.breaks') },
];

/** A squad's gender pool as the planner names it, in the page's language. */
const GENDER_GROUP: Readonly<Record<GenderGroup, string>> = {
  male: m('aa.group.male'),
  female: m('aa.group.female'),
  mixed: m('aa.group.mixed'),
};

const FLAG_FIELDS: ReadonlyArray<{ key: FlagKey; label: string }> = [
  { key: 'separateGenders', label: m('aa.separate') },
  { key: 'keepClubsTogether', label: m('aa.clubs') },
  { key: 'groupByAgeCategory', label: m('aa.byAge') },
  { key: 'separateCompetitions', label: m('aa.byCompetition') },
];

const NAMING_LABELS: Readonly<Record<NamingPrefix, string>> = {
  gender: m('aa.nameGender'),
  number: m('aa.nameNumber'),
  none: m('aa.nameNone'),
};

/** Colors by position in the planner's table; CSS paints `[data-color]` without inline styles. */
function colorKey(squad: SquadProposal['squads'][number]): string {
  if (squad.isBreak) return 'break';
  const index = SQUAD_COLORS.findIndex((color) => color.name === squad.colorName);
  return index < 0 ? 'none' : String(index);
}

function clubSummary(squad: SquadProposal['squads'][number]): string {
  const counts = new Map<string, number>();
  for (const participant of squad.participants)
    counts.set(participant.club || m('aa.noClub'), (counts.get(participant.club || m('aa.noClub')) ?? 0) + 1);
  return [...counts].map(([club, count]) => `${club} (${count})`).join(', ');
}

const round1 = (value: number) => Math.round(value * 10) / 10;

export class AutoAssignDialog {
  readonly element = h('dialog', {
    class: 'auto-assign',
    id: 'auto-assign',
    'aria-labelledby': 'auto-assign-title',
    'data-step': 'criteria',
  });
  private applied = false;
  private proposals: SquadProposal[] = [];
  private selected = 0;
  private competitions = new Map<number, string>();
  private readonly numberInputs = new Map<NumberKey, HTMLInputElement>();
  private readonly flagInputs = new Map<FlagKey, HTMLInputElement>();
  private readonly rangesInput = h('input', {
    id: 'crit-ageCategoryRanges',
    name: 'ageCategoryRanges',
    type: 'text',
    maxlength: 200,
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': 'ranges-hint',
  });
  private readonly namingSelect = h(
    'select',
    { id: 'crit-namingPrefix', name: 'namingPrefix' },
    ...NAMING_PREFIXES.map((prefix) => h('option', { value: prefix }, NAMING_LABELS[prefix])),
  );
  private readonly stepList = h('ol', { class: 'steps', 'aria-label': m('aa.steps') });
  private readonly criteriaSection: HTMLElement;
  private readonly proposalsSection = h('section', { class: 'step step-proposals', hidden: true, 'aria-labelledby': 'proposals-title' });
  private readonly appliedSection = h('section', { class: 'step step-applied', hidden: true, 'aria-labelledby': 'applied-title' });
  private readonly criteriaForm: HTMLFormElement;
  private readonly criteriaError = h('p', { class: 'form-error', id: 'criteria-error', role: 'alert', hidden: true });
  private readonly defaultsNote = h('p', { class: 'hint', id: 'criteria-defaults' });
  private readonly generateButton = h('button', { type: 'submit', class: 'primary', id: 'generate-proposals' }, m('aa.generate'));

  constructor(
    private readonly api: OfficeApi,
    private readonly event: EventSummary,
    private readonly onApplied: () => void,
  ) {
    const numberFields = NUMBER_FIELDS.map(({ key, label }) => {
      const { min, max } = SQUAD_CRITERIA_LIMITS[key];
      const input = h('input', {
        id: `crit-${key}`,
        name: key,
        type: 'number',
        min,
        max,
        step: 1,
        required: true,
        inputmode: 'numeric',
        'aria-describedby': `crit-${key}-range`,
      });
      this.numberInputs.set(key, input);
      return h(
        'div',
        { class: 'picker form-field' },
        h('label', { for: input.id }, label),
        input,
        h('span', { class: 'range', id: `crit-${key}-range` }, m('aa.range', { min, max })),
      );
    });
    const flagFields = FLAG_FIELDS.map(({ key, label }) => {
      const input = h('input', { id: `crit-${key}`, name: key, type: 'checkbox' });
      this.flagInputs.set(key, input);
      return h('label', { class: 'check', for: input.id }, input, ` ${label}`);
    });
    // The range text is only meaningful while ages are grouped (dialog criteria form).
    this.flagInputs.get('groupByAgeCategory')!.addEventListener('change', () => this.syncRangesEnabled());
    const rangesField = h(
      'div',
      { class: 'picker form-field wide' },
      h('label', { for: this.rangesInput.id }, m('aa.ages')),
      this.rangesInput,
      h('span', { class: 'range', id: 'ranges-hint' }, m('aa.agesHint')),
    );
    const namingField = h(
      'div',
      { class: 'picker form-field' },
      h('label', { for: this.namingSelect.id }, m('aa.names')),
      this.namingSelect,
    );
    const cancel = h('button', { type: 'button', id: 'criteria-cancel' }, t('common.cancel'));
    cancel.addEventListener('click', () => this.element.close());
    this.criteriaForm = h(
      'form',
      { class: 'criteria-form', novalidate: true },
      this.defaultsNote,
      h('div', { class: 'form-grid' }, ...numberFields, namingField),
      h('fieldset', { class: 'flags' }, h('legend', {}, m('aa.rules')), ...flagFields),
      rangesField,
      this.criteriaError,
      h('div', { class: 'actions' }, cancel, this.generateButton),
    );
    this.criteriaForm.addEventListener('submit', (submitEvent) => {
      submitEvent.preventDefault();
      void this.generate();
    });
    this.criteriaSection = h(
      'section',
      { class: 'step step-criteria', 'aria-labelledby': 'criteria-title' },
      h('h3', { id: 'criteria-title', tabindex: -1 }, m('aa.criteria')),
      this.criteriaForm,
    );
    this.element.append(
      h('header', { class: 'dialog-head' }, h('h2', { id: 'auto-assign-title' }, m('aa.title', { event: event.name })), this.stepList),
      this.criteriaSection,
      this.proposalsSection,
      this.appliedSection,
    );
    // Esc after a successful apply must refresh the page just like the Close button.
    this.element.addEventListener('close', () => {
      if (this.applied) this.onApplied();
      this.applied = false;
    });
  }

  /** A new dialog session: criteria step, defaults from GET /api/app-settings/squadAutoAssign. */
  open(): void {
    this.proposals = [];
    this.applied = false;
    this.criteriaError.hidden = true;
    this.show('criteria');
    this.element.showModal();
    this.generateButton.disabled = true;
    this.defaultsNote.textContent = m('aa.loadingDefaults');
    this.api
      .squadDefaults()
      .then(
        ({ value }) => {
          this.fill(value);
          this.defaultsNote.textContent = value.description;
        },
        (error: unknown) => {
          this.fill(SQUAD_CRITERIA_DEFAULTS);
          this.defaultsNote.textContent = m('aa.defaultsFailed', { error: (error as Error).message });
        },
      )
      .finally(() => {
        this.generateButton.disabled = false;
        this.numberInputs.get('maxParticipantsPerSquad')?.focus();
      });
  }

  private fill(criteria: SquadCriteria): void {
    for (const [key, input] of this.numberInputs) input.value = String(criteria[key]);
    for (const [key, input] of this.flagInputs) input.checked = criteria[key];
    // The office plans each competition's squads apart: a Kür gymnast among P-level ones is a mistake.
    this.flagInputs.get('separateCompetitions')!.checked = true;
    this.rangesInput.value = criteria.ageCategoryRanges;
    this.namingSelect.value = criteria.namingPrefix;
    this.syncRangesEnabled();
  }

  private syncRangesEnabled(): void {
    this.rangesInput.disabled = !this.flagInputs.get('groupByAgeCategory')!.checked;
  }

  /** Null, with the first problem shown and focused, when a number is outside the spec's range. */
  private readCriteria(): SquadCriteria | null {
    for (const { key, label } of NUMBER_FIELDS) {
      const input = this.numberInputs.get(key)!;
      if (!input.checkValidity()) {
        const { min, max } = SQUAD_CRITERIA_LIMITS[key];
        this.showCriteriaError(m('aa.wholeNumber', { label, min, max }));
        input.focus();
        return null;
      }
    }
    const number = (key: NumberKey) => Number(this.numberInputs.get(key)!.value);
    const flag = (key: FlagKey) => this.flagInputs.get(key)!.checked;
    return {
      maxParticipantsPerSquad: number('maxParticipantsPerSquad'),
      numberOfProposals: number('numberOfProposals'),
      breakCount: number('breakCount'),
      separateGenders: flag('separateGenders'),
      keepClubsTogether: flag('keepClubsTogether'),
      groupByAgeCategory: flag('groupByAgeCategory'),
      separateCompetitions: flag('separateCompetitions'),
      ageCategoryRanges: this.rangesInput.value,
      namingPrefix: this.namingSelect.value as NamingPrefix,
    };
  }

  private showCriteriaError(message: string | null): void {
    this.criteriaError.hidden = message === null;
    this.criteriaError.textContent = message ?? '';
  }

  /** The competitions a separated squad starts in, by name (loaded with the proposals). */
  private competitionNames(ids: readonly number[] | undefined): string | null {
    if (!ids || ids.length === 0) return null;
    return ids.map((id) => this.competitions.get(id) ?? m('competition.fallback', { id })).join(' + ');
  }

  private async generate(): Promise<void> {
    const criteria = this.readCriteria();
    if (!criteria) return;
    this.showCriteriaError(null);
    this.generateButton.disabled = true;
    this.generateButton.textContent = m('aa.generating');
    let response: GenerateResponse;
    try {
      const [generated, competitions] = await Promise.all([
        this.api.generateSquads({ eventId: this.event.id, ...criteria }),
        this.api.competitions(this.event.id),
      ]);
      response = generated;
      this.competitions = new Map(competitions.map((competition) => [competition.id, competition.name ?? '']));
    } catch (error) {
      this.showCriteriaError(m('aa.noProposals', { error: (error as Error).message }));
      return;
    } finally {
      this.generateButton.disabled = false;
      this.generateButton.textContent = m('aa.generate');
    }
    this.proposals = response.proposals;
    this.selected = 0;
    this.renderProposals(response.totalParticipants);
    this.show('proposals');
  }

  private renderProposals(totalParticipants: number): void {
    const error = h('p', { class: 'form-error', id: 'apply-error', role: 'alert', hidden: true });
    const applyButton = h('button', { type: 'button', class: 'primary danger', id: 'apply-proposal', 'aria-describedby': 'apply-warning' });
    const label = () => m('aa.apply', { number: this.selected + 1 });
    applyButton.textContent = label();
    const cards = this.proposals.map((proposal, index) => {
      const radio = h('input', {
        type: 'radio',
        name: 'proposal',
        value: proposal.id,
        id: `proposal-${index + 1}-choice`,
        checked: index === this.selected,
      });
      radio.addEventListener('change', () => {
        this.selected = index;
        applyButton.textContent = label();
        this.proposalsSection
          .querySelectorAll<HTMLElement>('.proposal')
          .forEach((card) => (card.dataset.selected = String(card.dataset.index === String(index))));
      });
      const { stats } = proposal;
      return h(
        'article',
        {
          class: 'proposal',
          'data-index': index,
          'data-selected': String(index === this.selected),
          'aria-labelledby': `proposal-${index + 1}-title`,
        },
        h('h4', { id: `proposal-${index + 1}-title` }, h('label', { for: radio.id }, radio, m('aa.proposal', { number: index + 1 }))),
        h(
          'dl',
          { class: 'stats' },
          h('dt', {}, m('aa.squads')),
          h('dd', {}, `${stats.totalSquads}${stats.breakSquads > 0 ? ` + ${countOf(stats.breakSquads, 'break')}` : ''}`),
          h('dt', {}, m('aa.participants')),
          h('dd', {}, String(stats.totalParticipants)),
          h('dt', {}, m('aa.perSquad')),
          h(
            'dd',
            {},
            m('aa.average', {
              average: round1(stats.avgParticipantsPerSquad),
              min: stats.minParticipantsPerSquad,
              max: stats.maxParticipantsPerSquad,
            }),
          ),
          h('dt', {}, m('aa.gender')),
          h('dd', {}, m('aa.genders', { male: stats.genderDistribution.male, female: stats.genderDistribution.female })),
        ),
        h(
          'ul',
          { class: 'proposal-squads' },
          ...proposal.squads.map((squad) =>
            h(
              'li',
              { class: 'proposal-squad', 'data-squad': squad.name, 'data-break': String(squad.isBreak) },
              h(
                'div',
                { class: 'squad-line' },
                h('span', { class: 'swatch', 'data-color': colorKey(squad), 'aria-hidden': 'true' }),
                h('strong', { class: 'squad-name' }, squad.name),
                h(
                  'span',
                  { class: 'squad-meta' },
                  squad.isBreak
                    ? m('aa.break')
                    : [
                        this.competitionNames(squad.competitionIds),
                        squad.colorName,
                        GENDER_GROUP[squad.genderGroup],
                        squad.ageCategory,
                        countOf(squad.participants.length, 'participant'),
                      ]
                        .filter(Boolean)
                        .join(' · '),
                ),
              ),
              squad.participants.length > 0
                ? h(
                    'p',
                    { class: 'squad-people' },
                    squad.participants
                      .map((participant) => personName({ firstName: participant.firstname, lastName: participant.lastname }))
                      .join(', '),
                  )
                : null,
              squad.participants.length > 0 ? h('p', { class: 'squad-clubs' }, m('aa.clubsList', { clubs: clubSummary(squad) })) : null,
            ),
          ),
        ),
      );
    });
    const back = h('button', { type: 'button', id: 'proposals-back' }, m('aa.back'));
    back.addEventListener('click', () => this.show('criteria'));
    // Group and team squads (G1, T1…) are planned by hand; the spec's apply would clear them.
    const clearUnits = h('input', { type: 'checkbox', id: 'apply-clear-units' });
    applyButton.addEventListener('click', () => void this.apply(applyButton, back, error, clearUnits.checked));
    this.proposalsSection.replaceChildren(
      h('h3', { id: 'proposals-title', tabindex: -1 }, m('aa.proposalsFor', { participants: countOf(totalParticipants, 'participant') })),
      h('div', { class: 'proposals', role: 'radiogroup', 'aria-labelledby': 'proposals-title' }, ...cards),
      h('p', { class: 'warning', id: 'apply-warning' }, m('aa.warning')),
      h('label', { class: 'check', for: clearUnits.id }, clearUnits, ` ${m('aa.clearUnits')}`),
      error,
      h('div', { class: 'actions' }, back, applyButton),
    );
  }

  private async apply(button: HTMLButtonElement, back: HTMLButtonElement, error: HTMLElement, clearUnits: boolean): Promise<void> {
    const proposal = this.proposals[this.selected];
    if (!proposal) return;
    button.disabled = true;
    back.disabled = true;
    error.hidden = true;
    try {
      const result = await this.api.applySquads({
        eventId: this.event.id,
        squads: proposal.squads.map((squad) => ({
          name: squad.name,
          participantIds: squad.participants.map((participant) => participant.id),
        })),
        clearExisting: true,
        keepGroupAndTeamSquads: !clearUnits,
      });
      this.applied = true;
      const close = h('button', { type: 'button', class: 'primary', id: 'applied-close' }, m('aa.close'));
      close.addEventListener('click', () => this.element.close());
      this.appliedSection.replaceChildren(
        h('h3', { id: 'applied-title', tabindex: -1 }, m('aa.applied')),
        h('p', { class: 'success', id: 'applied-message' }, `✓ ${result.message}.`),
        h(
          'p',
          {},
          m('aa.appliedSummary', {
            number: this.selected + 1,
            squads: countOf(result.squadsCreated, 'squad'),
            participants: countOf(result.participantsAssigned, 'participant'),
          }),
        ),
        h('div', { class: 'actions' }, close),
      );
      this.show('applied');
      close.focus();
    } catch (failure) {
      error.hidden = false;
      error.textContent = m('aa.notApplied', { error: (failure as Error).message });
    } finally {
      button.disabled = false;
      back.disabled = false;
    }
  }

  private show(step: AutoAssignStep): void {
    this.element.dataset.step = step;
    this.criteriaSection.hidden = step !== 'criteria';
    this.proposalsSection.hidden = step !== 'proposals';
    this.appliedSection.hidden = step !== 'applied';
    const steps: Array<[AutoAssignStep, string]> = [
      ['criteria', m('aa.criteria')],
      ['proposals', m('aa.proposalsStep')],
      ['applied', m('aa.applied')],
    ];
    this.stepList.replaceChildren(...steps.map(([key, text]) => h('li', { 'aria-current': key === step ? 'step' : false }, text)));
    if (step !== 'applied') this.element.querySelector<HTMLElement>(`#${step}-title`)?.focus();
  }
}
