/**
 * The jury portal's page: builds the views (./views/) once and renders the state into them. The
 * judge's actions go out through `JuryActions`, so nothing here loads or saves.
 */
import { api } from '../shared/api.js';
import { buildBadges } from '../shared/build-badges.js';
import { deviationAlert } from '../shared/deviation-view.js';
import { h } from '../shared/dom.js';
import { languageSwitch, t } from '../shared/i18n.js';
import type { PanelState } from '../shared/panel.js';
import { judgeNameControl } from './judge-name-control.js';
import { fullName, type ParticipantRow, type Selection } from './model.js';
import type { SaveJob } from './save-job.js';
import { selectionSummary, squadsOf } from './selection.js';
import type { JuryState } from './state.js';
import { panelSummaryView } from './views/panel-view.js';
import { participantListView, type ListedRow, type ParticipantListView } from './views/participant-list-view.js';
import { scoringView, type AckState, type ScoringView } from './views/scoring-view.js';
import { selectionView, type SelectionView } from './views/selection-view.js';
import { statusView } from './views/status-view.js';
import { jt } from './texts.js';

/** What the judge does on the page. */
export interface JuryActions {
  select(change: Partial<Selection>): void;
  choose(key: string): void;
  typed(): void;
  submit(): void;
  /** The alerts show an open deviation of the selected participant: its panel summary should be current. */
  deviationShown(): void;
}

export class JuryView {
  readonly status = statusView();
  readonly pickers: SelectionView;
  readonly list: ParticipantListView;
  readonly scoring: ScoringView;
  private readonly panelSummary = panelSummaryView();
  /** Whether the form on the page was built read-only (a released scope). */
  formReleased = false;
  /** Whether the form on the page was built for a gymnast who did not start (inputs disabled). */
  formDidNotStart = false;
  private readonly pickerSummary = h('summary', { id: 'selection-summary' });
  private readonly alerts = h('div', { class: 'deviation-alerts', id: 'deviation-alerts', 'aria-live': 'assertive' });

  constructor(
    private readonly root: HTMLElement,
    private readonly state: JuryState,
    private readonly queue: { readonly pending: readonly SaveJob[]; readonly isWaiting: boolean },
    private readonly actions: JuryActions,
  ) {
    this.pickers = selectionView((change) => actions.select(change));
    this.list = participantListView((key) => actions.choose(key));
    this.scoring = scoringView({ onTyped: () => actions.typed(), onSubmit: () => actions.submit() });
  }

  renderShell(): void {
    const judgeMode = this.state.judgeFieldId !== null;
    document.title = t('jury.title');
    const header = h(
      'header',
      { class: 'topbar' },
      h('h1', {}, t('jury.title')),
      this.status.pill,
      judgeNameControl(),
      languageSwitch(),
      buildBadges(api.version),
    );
    this.root.replaceChildren(
      header,
      h(
        'main',
        { class: judgeMode ? 'judge-mode' : '' },
        // On a judge's phone the selection is set by the link: folded away under one line saying what it is.
        judgeMode ? h('details', { class: 'judge-pickers' }, this.pickerSummary, this.pickers.element) : this.pickers.element,
        this.status.banner,
        this.alerts,
        // A judge's own field comes first: on a phone it is all the judge needs.
        judgeMode
          ? h('div', { class: 'layout' }, this.scoring.element, this.list.element)
          : h('div', { class: 'layout' }, this.list.element, this.scoring.element),
      ),
    );
    this.renderPanel();
  }

  /** The pickers and the folded selection's line, after the selection settled. */
  renderSelection(): void {
    const { state } = this;
    const office = state.officeCompetition();
    this.pickers.fill({
      events: state.events,
      competitions: state.competitions.map((competition) =>
        competition.isGroupCompetition || competition.id === office?.id
          ? { ...competition, name: jt('officeOnlyOption', { name: competition.name ?? `#${competition.id}` }) }
          : competition,
      ),
      // The office scores a group or team competition: no device to offer here.
      devices: office ? [] : state.devices(),
      squads: squadsOf(state.eventSquads, state.entries),
    });
    this.pickers.show(state.selection);
    this.pickerSummary.textContent = selectionSummary(state.selection, state.discipline(), state.competitions);
  }

  private waitingCount(): number {
    return this.queue.pending.length > 0 && this.queue.isWaiting ? this.queue.pending.length : 0;
  }

  renderConnection(): void {
    this.status.render({ connection: this.state.connection, waitingCount: this.waitingCount() });
  }

  renderQueueState(): void {
    this.renderConnection();
    this.renderList();
    const selected = this.state.selectedRow();
    if (selected && this.waitingCount() > 0 && this.state.latestJobFor(selected.key)) {
      this.showAck('waiting', t('jury.waiting', { name: fullName(selected, t('jury.unnamed')) }));
    }
    this.renderPanelStatus();
  }

  private listed(row: ParticipantRow): ListedRow {
    const released = this.state.released(row);
    return { ...this.statusOf(row), released };
  }

  private statusOf(row: ParticipantRow): Omit<ListedRow, 'released'> {
    const shown = this.storedStatus(row);
    // Nothing to wait for: the mark stands where "pending" would; a stored value stays in sight.
    return row.didNotStart && shown.status === 'pending' ? { ...shown, icon: '–', text: jt('didNotStart') } : shown;
  }

  private storedStatus(row: ParticipantRow): Omit<ListedRow, 'released'> {
    const { state } = this;
    const status = state.displayStatus(row);
    switch (status) {
      case 'waiting':
        return { row, status, icon: '◷', text: t('jury.status.waiting') };
      case 'error':
        return { row, status, icon: '⚠', text: t('jury.status.error') };
      case 'completed': {
        const mine = state.judgeValues.get(row.key);
        if (mine !== undefined) return { row, status, icon: '✓', text: t('jury.yourValue', { value: state.show(mine) }) };
        if (row.currentScore === null) return { row, status, icon: '✓', text: t('jury.status.completed') };
        const score = state.show(row.currentScore);
        const provisional = state.panelSettings !== null && state.panelStates.get(row.key)?.complete === false;
        return { row, status, icon: provisional ? '◐' : '✓', text: provisional ? t('jury.provisional', { score }) : score };
      }
      default:
        return { row, status, icon: '○', text: t('jury.status.pending') };
    }
  }

  renderList(): void {
    const { state } = this;
    const office = state.officeCompetition();
    // Nothing to score here: the office's words stand alone.
    this.scoring.element.hidden = office !== null;
    if (office)
      this.list.message(
        jt('officeOnly', { competition: office.name ?? `#${office.id}`, groups: t('office.groupScores'), teams: t('office.teams') }),
      );
    else if (state.rows.length > 0) this.list.message('');
    else if (state.entries.length > 0) this.list.message(t('jury.noParticipants'));
    this.list.render(
      state.rows.map((row) => this.listed(row)),
      state.selectedKey,
    );
  }

  renderPanel(): void {
    const { state } = this;
    const row = state.deviceLoading ? undefined : state.selectedRow();
    this.scoring.render({
      row,
      layout: state.layout,
      format: state.format,
      formula: state.formula,
      useJuryResults: state.useJuryResults,
      judgeFieldId: state.judgeFieldId,
      extra: state.judgeFieldId === null ? this.panelSummary.element : null,
      released: (this.formReleased = row !== undefined && state.released(row)),
      didNotStart: (this.formDidNotStart = row?.didNotStart === true),
    });
    // A link whose field is not on this device: the folded selection opens so the judge can change it.
    const folded = this.root.querySelector<HTMLDetailsElement>('details.judge-pickers');
    if (folded && !state.deviceLoading && state.layout.inputs.length > 0)
      folded.open ||= !state.layout.inputs.some((input) => input.field.id === state.judgeFieldId);
    this.renderPanelStatus();
    this.renderPanelSummary();
  }

  renderPanelStatus(): void {
    const row = this.state.selectedRow();
    if (!row) return;
    const { status, icon, text } = this.listed(row);
    // The heading's mark says "did not start" already: the line keeps only the club then.
    const parts = row.didNotStart && status === 'pending' ? [] : [`${icon} ${text}`];
    if (row.clubName) parts.push(row.clubName);
    this.scoring.status(status, parts.join(' · '));
  }

  /** The selected participant's panel as a read just gave it. */
  showPanel(panel: PanelState | null): void {
    const { state } = this;
    state.selectedPanel = panel;
    const row = state.selectedRow();
    if (row && panel) state.panelStates.set(row.key, panel);
    this.renderPanelSummary();
    this.renderList();
  }

  private renderPanelSummary(): void {
    const { state } = this;
    const settings = state.panelSettings;
    if (state.judgeFieldId !== null || !settings || !state.selectedRow()) {
      this.panelSummary.render(null);
      return;
    }
    this.panelSummary.render({ settings, state: state.selectedPanel, format: state.format, judge: (fieldId) => state.judgeLabel(fieldId) });
  }

  /** The head judge's alerts: open deviations of the selected device among the listed participants. */
  renderAlerts(): void {
    const { state } = this;
    const shown = [...state.deviations.values()].flatMap((deviation) => {
      const row = state.rows.find((candidate) => candidate.wertungenId === deviation.scoreId);
      return deviation.disciplineId === state.selection.disciplineId && row ? [{ deviation, row }] : [];
    });
    this.alerts.hidden = shown.length === 0;
    if (state.judgeFieldId !== null) {
      // An E-judge scores one field: the panel's deviations are the head judge's to resolve, so one
      // line with their count keeps the judge's input at the top of the phone's screen.
      const count = shown.length;
      this.alerts.replaceChildren(
        h(
          'p',
          { class: 'deviation-count', id: 'deviation-count' },
          count === 1 ? jt('otherDeviations1') : jt('otherDeviations', { count }),
        ),
      );
      return;
    }
    this.alerts.replaceChildren(
      ...shown.map(({ deviation, row }) => {
        const open = h('button', { type: 'button', class: 'deviation-open' }, t('panel.show'));
        open.addEventListener('click', () => this.actions.choose(row.key));
        return deviationAlert(
          deviation,
          {
            name: fullName(row, t('jury.unnamed')),
            device: state.discipline()?.displayName || state.discipline()?.name || `#${deviation.disciplineId}`,
            judge: (fieldId) => state.judgeLabel(fieldId),
            format: state.format,
          },
          open,
        );
      }),
    );
    if (shown.some(({ row }) => row.key === state.selectedKey)) this.actions.deviationShown();
  }

  showAck(ackState: AckState, message: string): void {
    this.scoring.ack(ackState, message);
  }
}
