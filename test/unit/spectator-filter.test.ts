/**
 * The spectator filter (`toLiveUpdate`): what a spectator may see of an outbox event under the
 * event's privacy settings. Pure: no database, no socket.
 */
import { describe, expect, it } from 'vitest';
import type { OutboxDelivery } from '../../outbox/relay.js';
import { toLiveUpdate } from '../../src/realtime/spectators.js';
import type { SpectatorPrivacy } from '../../src/model/spectator-privacy.js';

const released: SpectatorPrivacy = { publish: 'released', hiddenParticipantIds: [] };
const all: SpectatorPrivacy = { publish: 'all', hiddenParticipantIds: [] };

const score = (fields: Record<string, unknown>): OutboxDelivery => ({
  seq: 41,
  topic: 'score-updated',
  eventId: 3,
  message: {
    scoreId: 7,
    eventId: 3,
    competitionId: 5,
    disciplineId: 9,
    disciplineName: 'Boden',
    participantId: 11,
    firstname: 'Ida',
    lastname: 'Zimmermann',
    score: 12.5,
    finalScore: 12.5,
    timestamp: '2026-11-28T10:00:00.000Z',
    seq: 41,
    source: 'api',
    ...fields,
  },
});

describe('toLiveUpdate', () => {
  it('passes a released score with ids and value, and no name', () => {
    const update = toLiveUpdate(score({ released: true }), released);
    expect(update).toEqual({ seq: 41, type: 'score', c: 5, d: 9, sid: 7, pid: 11, v: 12.5 });
    expect(JSON.stringify(update)).not.toMatch(/Ida|Zimmermann|Boden/);
  });

  it('gives nothing for an unreleased score while the event publishes released scores only', () => {
    expect(toLiveUpdate(score({ released: false }), released)).toBeNull();
    expect(toLiveUpdate(score({}), released)).toBeNull();
  });

  it('marks an unreleased score provisional while the event publishes all', () => {
    expect(toLiveUpdate(score({ released: false }), all)).toEqual({
      seq: 41,
      type: 'score',
      c: 5,
      d: 9,
      sid: 7,
      pid: 11,
      v: 12.5,
      p: true,
    });
  });

  it('names the team or group a collective score belongs to, and a removed value as null', () => {
    expect(toLiveUpdate(score({ released: true, participantId: null, teamId: 4, score: null }), all)).toEqual({
      seq: 41,
      type: 'score',
      c: 5,
      d: 9,
      sid: 7,
      tid: 4,
      v: null,
    });
    expect(toLiveUpdate(score({ released: true, participantId: undefined, groupId: 2 }), all)).toMatchObject({ gid: 2 });
  });

  it('turns a release into a notice and leaves out the other topics', () => {
    const release: OutboxDelivery = {
      seq: 42,
      topic: 'release-changed',
      eventId: 3,
      message: { eventId: 3, competitionId: 5, disciplineId: 9, squadName: null, released: true, by: 'head', seq: 42 },
    };
    expect(toLiveUpdate(release, released)).toEqual({ seq: 42, type: 'release', c: 5, d: 9, released: true });
    const rotation: OutboxDelivery = { seq: 43, topic: 'rotation-changed', eventId: 3, message: { eventId: 3, rotation: 2, seq: 43 } };
    expect(toLiveUpdate(rotation, all)).toBeNull();
    const squads: OutboxDelivery = { seq: 44, topic: 'squads-applied', eventId: 3, message: { eventId: 3, squads: 4, seq: 44 } };
    expect(toLiveUpdate(squads, all)).toBeNull();
  });

  describe('an inquiry', () => {
    /** An inquiry-updated message as commands/inquiries.ts appends it: the whole inquiry, names and coach included. */
    const inquiry = (fields: Record<string, unknown>): OutboxDelivery => ({
      seq: 45,
      topic: 'inquiry-updated',
      eventId: 3,
      message: {
        id: 2,
        eventId: 3,
        competitionId: 5,
        scoreId: 7,
        disciplineId: 9,
        disciplineName: 'Boden',
        fieldId: 21,
        participantId: 11,
        firstName: 'Ida',
        lastName: 'Zimmermann',
        startNumber: '101',
        clubName: 'SV Nordheim',
        coach: 'Trainerin Kim',
        state: 'filed',
        note: 'Verbindung nicht anerkannt',
        released: true,
        timestamp: '2026-11-28T10:01:00.000Z',
        seq: 45,
        source: 'api',
        ...fields,
      },
    });

    it('becomes an open mark on the value with ids only: no name, club, coach or note', () => {
      const update = toLiveUpdate(inquiry({}), released);
      expect(update).toEqual({ seq: 45, type: 'inquiry', c: 5, d: 9, sid: 7, pid: 11, open: true });
      expect(JSON.stringify(update)).not.toMatch(/Ida|Zimmermann|Nordheim|Kim|Verbindung|Boden|101/);
      expect(toLiveUpdate(inquiry({ state: 'confirmed' }), released)).toMatchObject({ type: 'inquiry', open: true });
    });

    it('closes the mark once decided, upheld or rejected', () => {
      expect(toLiveUpdate(inquiry({ state: 'upheld', decision: 'upheld' }), released)).toMatchObject({ type: 'inquiry', open: false });
      expect(toLiveUpdate(inquiry({ state: 'rejected', decision: 'rejected' }), all)).toMatchObject({ type: 'inquiry', open: false });
    });

    it('is left out with its unreleased value while the event publishes released scores only, and passed while it publishes all', () => {
      expect(toLiveUpdate(inquiry({ released: false }), released)).toBeNull();
      expect(toLiveUpdate(inquiry({ released: undefined }), released)).toBeNull();
      expect(toLiveUpdate(inquiry({ released: false }), all)).toEqual({
        seq: 45,
        type: 'inquiry',
        c: 5,
        d: 9,
        sid: 7,
        pid: 11,
        open: true,
      });
    });

    it('carries the id of a participant not to be published, as a score does: the page has no name for it', () => {
      const hidden: SpectatorPrivacy = { publish: 'all', hiddenParticipantIds: [11] };
      const update = toLiveUpdate(inquiry({}), hidden);
      expect(update).toMatchObject({ type: 'inquiry', pid: 11, open: true });
      expect(JSON.stringify(update)).not.toMatch(/Ida|Zimmermann|101/);
      expect(toLiveUpdate(score({ released: true }), hidden)).toMatchObject({ type: 'score', pid: 11 });
    });

    it('gives nothing without the ids it concerns', () => {
      expect(toLiveUpdate(inquiry({ scoreId: undefined }), all)).toBeNull();
      expect(toLiveUpdate(inquiry({ disciplineId: null }), all)).toBeNull();
    });
  });
});
