/** What the spectator page may show of an event (migration 0026), as commands and queries share it. */
export type PublishMode = 'released' | 'all';
export const PUBLISH_MODES: readonly PublishMode[] = ['released', 'all'];
/** Without a row of its own an event publishes released scores only: nothing unofficial leaves the hall unasked. */
export const DEFAULT_PUBLISH: PublishMode = 'released';

export interface SpectatorPrivacy {
  publish: PublishMode;
  /** Participants of the event shown without a name. */
  hiddenParticipantIds: number[];
}
