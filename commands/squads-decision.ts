/**
 * The rules of applying squads, decided without a database: the flat assignment a request asks
 * for, the refusal of participants that have no score row in the event, and what the apply
 * reports. The SQL that carries it out is in `apply-squads.ts`.
 */
import { validationFailed } from '../src/domain/errors.js';

export interface SquadAssignment {
  name: string;
  participantIds: number[];
}

/** How many offending ids a refusal names; the rest would only lengthen the message. */
const LISTED_IDS = 10;

/**
 * Checks what the schema cannot: names unique and not padded with blanks (" A" and "A" would look
 * alike on the squad page), every participant in one squad only. Returns the flat assignment.
 */
export function flattenAssignments(squads: readonly SquadAssignment[]): { participantIds: number[]; names: string[] } {
  const squadOfName = new Map<string, number>();
  const squadOfParticipant = new Map<number, number>();
  const participantIds: number[] = [];
  const names: string[] = [];
  squads.forEach((squad, index) => {
    if (squad.name.trim() !== squad.name) {
      throw validationFailed(`body.squads.${index}.name must not start or end with whitespace`);
    }
    const sameName = squadOfName.get(squad.name);
    if (sameName !== undefined) {
      throw validationFailed(`body.squads.${index}.name "${squad.name}" is already used by body.squads.${sameName}`);
    }
    squadOfName.set(squad.name, index);
    for (const participantId of squad.participantIds) {
      const other = squadOfParticipant.get(participantId);
      if (other !== undefined) {
        throw validationFailed(
          `body.squads.${index}.participantIds: participant ${participantId} is already listed in body.squads.${other}`,
        );
      }
      squadOfParticipant.set(participantId, index);
      participantIds.push(participantId);
      names.push(squad.name);
    }
  });
  return { participantIds, names };
}

/** Refuses the apply when listed participants have no score row in a competition of the event (`foreignIds`). */
export function checkForeignParticipants(eventId: number, foreignIds: readonly number[]): void {
  if (foreignIds.length === 0) return;
  const listed = foreignIds.slice(0, LISTED_IDS).join(', ') + (foreignIds.length > LISTED_IDS ? ', ...' : '');
  throw validationFailed(`body.squads: participants without a score row in event ${eventId}: ${listed}`);
}

/** A squad exists in the legacy layout only as the name on score rows: the squads that got at least one participant. */
export function squadsCreated(squads: readonly SquadAssignment[]): number {
  return squads.filter((squad) => squad.participantIds.length > 0).length;
}
