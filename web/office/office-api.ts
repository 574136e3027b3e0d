/**
 * The calls the office pages make. Response types come from the server's own modules (type-only
 * imports, erased from the bundle), so the client cannot drift from what the routes send.
 */
import type { SquadAutoAssignSetting } from '../../queries/app-settings.js';
import type { Candidate } from '../../queries/available-participants.js';
import type { CompetitionSummary, UnitSummary } from '../../queries/office-event-lists.js';
import type { EventSquads } from '../../queries/office-squads.js';
import type { AllAroundResults, TeamResults } from '../../queries/results.js';
import type { TeamScoresPage } from '../../queries/team-scores.js';
import type { GroupHeader, GroupScoreEntry } from '../../queries/group-scores.js';
import type { Completeness } from '../../queries/completeness.js';
import type { FieldValueCounts } from '../../queries/field-values.js';
import type { JudgesEvaluation } from '../../queries/judges-evaluation.js';
import type { AuditPage, ScoreHistory } from '../../queries/score-audit.js';
import type { ReleaseScope, ReleaseState } from '../../commands/release-scope.js';
import type { SquadEditResult as SquadEditReply } from '../../commands/edit-squads.js';
import type { CurrentRotation, RotationPlan } from '../../queries/rotations.js';
import type { GenerateRotationsInput, Rotation } from '../../src/domain/rotation-plan.js';
import type { JudgeCredential } from '../../src/model/judge-credential.js';
import type { ParticipantEntry } from '../../queries/participants.js';
import type { EntryFlags, EntryFlagsResult } from '../../commands/entry-flags.js';
import type { ColumnMapping, RegistrationField, RegistrationProblem } from '../../src/domain/registrations.js';
import type { FirewallServiceKey, NetworkInfo, ServiceStatus } from '../../src/firewall/index.js';
import type { SquadCriteria, SquadProposal } from '../../src/domain/squad-planner.js';
import { api, deleteJson, getJson, patchJson, postJson, putJson, type RequestOptions } from '../shared/api.js';
import type { PanelAggregation, PanelDeviation, PanelSettings } from '../shared/panel.js';
import type { PanelRules } from './panel-rules-form.js';
import type { Session } from './session.js';
import type { SpectatorSettings } from '../../queries/spectator-settings.js';
import type { PublishMode } from '../../src/model/spectator-privacy.js';

export type {
  AuditPage,
  Candidate,
  CompetitionSummary,
  Completeness,
  EventSquads,
  CurrentRotation,
  JudgeCredential,
  JudgesEvaluation,
  ParticipantEntry,
  RegistrationField,
  RegistrationProblem,
  ReleaseScope,
  Rotation,
  RotationPlan,
  ScoreHistory,
  SquadCriteria,
  SquadProposal,
  UnitSummary,
};

/** The generator's request: the event's apparatus and squads come from the server unless named. */
export type GenerateRotationsBody = Pick<GenerateRotationsInput, 'minutesPerApparatus' | 'breaks'> & { start: string };

export interface LateEntryBody {
  competitionId: number;
  firstName: string;
  lastName: string;
  birthDate?: string;
  gender?: string;
  clubName?: string;
  startNumber?: string;
  squadName?: string;
}

/** The file (base64) and how to read it; the same body previews and imports. */
export interface RegistrationsBody {
  content: string;
  mapping?: { [F in RegistrationField]?: number | null };
  defaultCompetitionId?: number;
}

export interface RegistrationsPreview {
  eventId: number;
  headers: string[];
  guessedMapping: ColumnMapping;
  mapping: ColumnMapping;
  rows: Array<{
    line: number;
    firstName: string;
    lastName: string;
    birthDate: string | null;
    gender: number | null;
    clubName: string | null;
    competitionId: number | null;
    startNumber: string | null;
    squadName: string | null;
    problems: RegistrationProblem[];
    status: 'new' | 'new-entry' | 'unchanged' | 'skipped';
  }>;
  counts: { new: number; newEntry: number; unchanged: number; skipped: number };
}

export interface RegistrationsImported {
  eventId: number;
  clubsCreated: number;
  participantsCreated: number;
  entriesCreated: number;
  unchanged: number;
  skipped: number;
}

export interface IssuedCredential {
  credential: JudgeCredential;
  token: string;
  portalUrl: string;
}

export interface GroupMembersReply {
  groupId: number;
  members: Array<{ id: number; firstName: string | null; lastName: string | null; startNumber: string | null; clubName: string | null }>;
}

export interface GenerateResponse {
  proposals: SquadProposal[];
  eventId: number;
  totalParticipants: number;
  criteria: SquadCriteria;
}

export interface ApplyResponse {
  success: true;
  message: string;
  eventId: number;
  squadsCreated: number;
  participantsAssigned: number;
}

export interface FirewallStatus {
  supported: boolean;
  platform: string;
  isAdmin: boolean;
  services: ServiceStatus[];
}

export interface FirewallChange {
  success: true;
  service: FirewallServiceKey;
  enabled: boolean;
  message: string;
}

export interface CandidateQuery {
  eventId: number;
  clubId: number;
  groupId: number;
  hidePlanned: boolean;
  hideOtherClubs: boolean;
}

export interface TeamScoreBody {
  teamId: number;
  competitionId: number;
  disciplineId: number;
  attempt: number;
  components: Array<{ fieldId: number; value: number }>;
  finalScore?: number;
}

export interface GroupScoreBody {
  groupId: number;
  competitionId: number;
  disciplineId: number;
  attemptNumber: number;
  components: Array<{ fieldId: number; value: number }>;
  finalScore?: number;
}

// One page covers every attempt of one team, competition and discipline many times over.
const TEAM_SCORES_LIMIT = 1000;

export type OfficeApi = ReturnType<typeof officeApi>;

export function officeApi(session: Session) {
  /** Sends the token when signed in; a 401 signs the tab out so the header says why. */
  const authed = async <T>(call: (options: RequestOptions) => Promise<T>): Promise<T> => {
    try {
      return await call({ headers: session.headers() });
    } catch (error) {
      session.refused(error);
      throw error;
    }
  };
  return {
    events: api.events,
    disciplines: api.disciplines,
    disciplineFields: api.disciplineFields,
    version: api.version,
    competitions: (eventId: number) => getJson<CompetitionSummary[]>(`/api/events/${eventId}/competitions`),
    groups: (eventId: number) => getJson<UnitSummary[]>(`/api/events/${eventId}/groups`),
    teams: (eventId: number) => getJson<UnitSummary[]>(`/api/events/${eventId}/teams`),
    squads: (eventId: number) => getJson<EventSquads>(`/api/events/${eventId}/squads`),
    squadDefaults: () => getJson<{ key: string; value: SquadAutoAssignSetting }>('/api/app-settings/squadAutoAssign'),
    generateSquads: (body: SquadCriteria & { eventId: number }) =>
      authed((options) =>
        postJson<GenerateResponse>('/api/squad-management/auto-assign/generate', body, { ...options, timeoutMs: 30_000 }),
      ),
    applySquads: (body: {
      eventId: number;
      squads: Array<{ name: string; participantIds: number[] }>;
      clearExisting: boolean;
      keepGroupAndTeamSquads: boolean;
    }) => authed((options) => postJson<ApplyResponse>('/api/squad-management/auto-assign/apply', body, { ...options, timeoutMs: 30_000 })),
    createSquad: (eventId: number, name: string, participantIds: number[]) =>
      authed((options) => postJson<SquadEditReply>(`/api/events/${eventId}/squads`, { name, participantIds }, options)),
    renameSquad: (eventId: number, squadName: string, name: string) =>
      authed((options) => putJson<SquadEditReply>(`/api/events/${eventId}/squads/${encodeURIComponent(squadName)}`, { name }, options)),
    deleteSquad: (eventId: number, squadName: string) =>
      authed((options) => deleteJson<SquadEditReply>(`/api/events/${eventId}/squads/${encodeURIComponent(squadName)}`, undefined, options)),
    moveToSquad: (eventId: number, participantId: number, squadName: string | null) =>
      authed((options) => putJson<SquadEditReply>(`/api/events/${eventId}/participants/${participantId}/squad`, { squadName }, options)),
    groupMembers: (groupId: number) => authed((options) => getJson<GroupMembersReply>(`/api/groups/${groupId}/members`, {}, options)),
    saveGroupMembers: (groupId: number, participantIds: number[]) =>
      authed((options) => putJson<GroupMembersReply>(`/api/groups/${groupId}/members`, { participantIds }, options)),
    candidates: (query: CandidateQuery) =>
      getJson<{ results: Candidate[]; total: number }>('/api/groups/available-participants', { ...query }),
    teamScores: (query: { teamId: number; competitionId: number; disciplineId: number }) =>
      getJson<TeamScoresPage>('/api/scores/team', { ...query, limit: TEAM_SCORES_LIMIT }),
    saveTeamScore: (body: TeamScoreBody) =>
      authed((options) => postJson<{ id: number; message: string; finalScore: number }>('/api/scores/team', body, options)),
    groupScores: (groupId: number, query: { competitionId: number; disciplineId: number }) =>
      getJson<{ success: true; group: GroupHeader; scores: GroupScoreEntry[] }>(`/api/scores/group/${groupId}`, query),
    saveGroupScore: (body: GroupScoreBody) =>
      authed((options) =>
        postJson<{ success: true; scoreId: number; components: Array<{ id: number; fieldId: number; value: number }> }>(
          '/api/scores/group',
          body,
          options,
        ),
      ),
    firewallStatus: () => getJson<FirewallStatus>('/api/firewall/status', {}, { timeoutMs: 20_000 }),
    changeFirewall: (action: 'enable' | 'disable', service: FirewallServiceKey) =>
      authed((options) => postJson<FirewallChange>(`/api/firewall/${action}/${service}`, undefined, { ...options, timeoutMs: 20_000 })),
    networkInfo: () => getJson<NetworkInfo>('/api/firewall/network-info'),
    results: (query: { eventId: number; competitionId: number; groupBy?: 'ageClass' | undefined }) =>
      getJson<AllAroundResults>('/api/results', query),
    teamResults: (query: { eventId: number; competitionId: number }) => getJson<TeamResults>('/api/results/teams', query),
    completeness: (query: { eventId: number; competitionId: number }) =>
      authed((options) => getJson<Completeness>('/api/completeness', query, options)),
    audit: (query: {
      eventId: number;
      competitionId?: number | undefined;
      disciplineId?: number | undefined;
      since?: string | undefined;
      /** The previous page's `nextBefore`: the page of older entries. */
      before?: number | undefined;
      limit: number;
    }) => authed((options) => getJson<AuditPage>('/api/audit', query, options)),
    history: (scoreId: number) => authed((options) => getJson<ScoreHistory>(`/api/scores/${scoreId}/history`, {}, options)),
    release: (scope: ReleaseScope) => authed((options) => postJson<ReleaseState>('/api/releases', scope, options)),
    reopen: (scope: ReleaseScope) => authed((options) => deleteJson<ReleaseState>('/api/releases', scope, options)),
    savePanel: (
      disciplineId: number,
      body: {
        judgeFieldIds: number[];
        aggregation: PanelAggregation;
        aggregateFieldId: number;
        tolerance: number;
        replaceStoredValues?: number | undefined;
      } & Partial<PanelRules>,
    ) => authed((options) => putJson<PanelSettings>(`/api/disciplines/${disciplineId}/panel`, body, options)),
    fieldValues: (disciplineId: number) => getJson<FieldValueCounts>(`/api/disciplines/${disciplineId}/field-values`),
    removePanel: (disciplineId: number) =>
      authed((options) => deleteJson<null>(`/api/disciplines/${disciplineId}/panel`, undefined, options)),
    panelDeviations: (query: { eventId: number; competitionId: number; limit: number; offset: number }) =>
      authed((options) => getJson<Array<Omit<PanelDeviation, 'seq'>>>('/api/panel-deviations', query, options)),
    rotationPlan: (eventId: number) => getJson<RotationPlan>(`/api/events/${eventId}/rotation-plan`),
    generateRotationPlan: (eventId: number, body: GenerateRotationsBody) =>
      authed((options) =>
        postJson<{ eventId: number; rotations: Rotation[] }>(`/api/events/${eventId}/rotation-plan/generate`, body, options),
      ),
    saveRotationPlan: (eventId: number, rotations: Rotation[]) =>
      authed((options) => putJson<RotationPlan>(`/api/events/${eventId}/rotation-plan`, { rotations }, options)),
    currentRotation: (eventId: number) => getJson<CurrentRotation>(`/api/events/${eventId}/rotations/current`),
    startRotation: (eventId: number, rotation: number) =>
      authed((options) =>
        postJson<{ eventId: number; rotation: number; changed: boolean }>(
          `/api/events/${eventId}/rotations/current`,
          { rotation },
          options,
        ),
      ),
    judgeCredentials: (eventId: number) =>
      authed((options) => getJson<JudgeCredential[]>(`/api/events/${eventId}/judge-credentials`, {}, options)),
    issueCredential: (eventId: number, body: { disciplineId: number; fieldId?: number; judgeName?: string }) =>
      authed((options) => postJson<IssuedCredential>(`/api/events/${eventId}/judge-credentials`, body, options)),
    revokeCredential: (eventId: number, id: number) =>
      authed((options) => deleteJson<JudgeCredential>(`/api/events/${eventId}/judge-credentials/${id}`, undefined, options)),
    spectatorSettings: (eventId: number) =>
      authed((options) => getJson<SpectatorSettings>(`/api/events/${eventId}/spectator-settings`, {}, options)),
    saveSpectatorSettings: (eventId: number, body: { publish: PublishMode; hiddenParticipantIds: number[] }) =>
      authed((options) => putJson<SpectatorSettings>(`/api/events/${eventId}/spectator-settings`, body, options)),
    judgesEvaluation: (eventId: number, competitionId: number | null) =>
      authed((options) =>
        getJson<JudgesEvaluation>('/api/judges-evaluation', competitionId === null ? { eventId } : { eventId, competitionId }, options),
      ),
    participants: (eventId: number) =>
      authed((options) => getJson<{ eventId: number; entries: ParticipantEntry[] }>(`/api/events/${eventId}/participants`, {}, options)),
    lateEntry: (eventId: number, body: LateEntryBody) =>
      authed((options) =>
        postJson<{ eventId: number; participantId: number; scoreId: number; created: boolean }>(
          `/api/events/${eventId}/participants`,
          body,
          options,
        ),
      ),
    setEntryFlags: (eventId: number, scoreId: number, flags: EntryFlags) =>
      authed((options) => patchJson<EntryFlagsResult>(`/api/events/${eventId}/entries/${scoreId}`, flags, options)),
    previewRegistrations: (eventId: number, body: RegistrationsBody) =>
      authed((options) =>
        postJson<RegistrationsPreview>(`/api/events/${eventId}/registrations/preview`, body, { ...options, timeoutMs: 60_000 }),
      ),
    importRegistrations: (eventId: number, body: RegistrationsBody) =>
      authed((options) =>
        postJson<RegistrationsImported>(`/api/events/${eventId}/registrations/import`, body, { ...options, timeoutMs: 60_000 }),
      ),
    confirmDeviation: (body: { scoreId: number; disciplineId: number; attempt: number }) =>
      authed((options) => postJson<{ confirmed: true }>('/api/panel-deviations/confirm', body, options)),
  };
}
