/**
 * What the jury portal does with the live feed: a score event updates its row (and, for the
 * selected participant, the form's baseline or a notice), the connection's state shows in the
 * status pill and restarts a waiting queue, a panel deviation becomes a head judge's alert.
 */
import { eventScore, type ScoreUpdatedEvent } from '../shared/api.js';
import { t } from '../shared/i18n.js';
import { boundApparatus } from '../shared/judge-credential.js';
import type { LiveStatus, RotationChanged } from '../shared/live.js';
import { applyDeviation, type PanelDeviation } from '../shared/panel.js';
import type { JuryLoader } from './loading.js';
import type { JuryView } from './rendering.js';
import type { JuryState } from './state.js';

/** Equal as stored (float4), both null counting as equal. */
const same = (a: number | null | undefined, b: number | null | undefined) =>
  (a ?? null) === null || (b ?? null) === null ? (a ?? null) === (b ?? null) : Math.fround(a!) === Math.fround(b!);

export class JuryLiveEvents {
  constructor(
    private readonly state: JuryState,
    private readonly view: JuryView,
    private readonly loader: JuryLoader,
    private readonly queue: { kick(): void },
    /** Changes the selection as the judge's picker would. */
    private readonly selectSquad: (squad: string) => void,
  ) {}

  scoreUpdated(event: ScoreUpdatedEvent): void {
    const { state, view } = this;
    state.eventsDuringLoad?.push(event);
    const row = state.applyEvent(event);
    if (!row) return;
    const progress = event.panel;
    if (progress) state.panelStates.set(row.key, { ...state.panelStates.get(row.key), ...progress });
    view.renderList();
    if (row.key !== state.selectedKey) return;
    view.renderPanelStatus();
    // Another judge's value changes the final every time: on a judge's own portal that is no news.
    if (state.judgeFieldId !== null) return;
    if (!state.dirty && state.latestJobFor(row.key) === undefined) {
      // Nothing typed (a panel filling up, a desktop write): the form follows the stored values (and
      // so does its optimistic check); once the judge types, the notice below applies instead.
      state.juryLoadKey = null;
      void this.loader.loadJuryResults();
      return;
    }
    void this.loader.refreshSelectedPanel();
    // Someone else's change: say so, and leave the inputs alone (the next save asks before it overwrites).
    const score = eventScore(event);
    const own = state.latestJobFor(row.key) !== undefined || same(score, state.ownScores.get(row.key));
    if (!own && score !== null && state.baseline && !same(score, state.baseline.final)) {
      view.scoring.notice(
        t('jury.changedElsewhere', {
          score: state.show(score),
          base: state.baseline.final === null ? '—' : state.show(state.baseline.final),
        }),
      );
    }
  }

  connectionChanged(status: LiveStatus): void {
    this.state.connection = status;
    if (status === 'live') this.queue.kick();
    this.view.renderConnection();
  }

  /** The head judge's portal shows each deviation; a judge's own portal only counts them. */
  panelDeviation(message: PanelDeviation): void {
    if (applyDeviation(this.state.deviations, message)) this.view.renderAlerts();
  }

  /** A portal bound to an apparatus by its credential moves on with the rotation plan. */
  rotationChanged(event: RotationChanged): void {
    const { selection } = this.state;
    const apparatus = boundApparatus(selection.eventId);
    if (event.eventId !== selection.eventId || apparatus === null || apparatus !== selection.disciplineId) return;
    const squad = event.apparatus.find((slot) => slot.disciplineId === apparatus)?.squadName;
    if (squad !== undefined && squad !== selection.squad) this.selectSquad(squad);
  }
}
