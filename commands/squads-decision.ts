/**
 * The rules of applying and editing squads, decided without a database: the flat assignment a
 * request asks for, the refusal of participants that have no score row in the event, what the
 * apply reports, and which rows an edit by hand renames. The SQL that carries it out is in
 * `apply-squads.ts` and `edit-squads.ts`.
 */
import { conflict, notFound, validationFailed } from '../src/domain/errors.js';

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

/** An edit of the squad page (admin): a squad exists only as the name on score rows. */
export type SquadEdit =
  | { action: 'move'; participantId: number; squadName: string | null }
  | { action: 'create'; name: string; participantIds: number[] }
  | { action: 'rename'; name: string; newName: string }
  | { action: 'delete'; name: string };

/** The score rows of the event an edit changes (the participants' rows, or those naming `squad`) and the name they get. */
export interface SquadUpdate {
  participantIds: number[];
  squad: string | null;
  to: string | null;
}

function checkName(name: string, field: string): void {
  if (name.trim() !== name) throw validationFailed(`${field} must not start or end with whitespace`);
}

/**
 * What an edit writes, given the event's squads now and the listed participants without a score row
 * in the event. A new or new-named squad must not exist yet (two squads would silently merge);
 * renaming or deleting one that does not exist is a 404.
 */
export function decideSquadEdit(
  edit: SquadEdit,
  eventId: number,
  state: { squads: readonly string[]; foreignIds: readonly number[] },
): SquadUpdate {
  const exists = (name: string) => state.squads.includes(name);
  switch (edit.action) {
    case 'move':
      if (edit.squadName !== null) checkName(edit.squadName, 'body.squadName');
      if (state.foreignIds.length > 0) throw notFound(`participant ${edit.participantId} has no score row in event ${eventId}`);
      return { participantIds: [edit.participantId], squad: null, to: edit.squadName };
    case 'create':
      checkName(edit.name, 'body.name');
      if (exists(edit.name)) throw conflict(`squad "${edit.name}" exists already in event ${eventId}; move gymnasts into it instead`);
      checkForeignParticipants(eventId, state.foreignIds);
      return { participantIds: edit.participantIds, squad: null, to: edit.name };
    case 'rename':
      checkName(edit.newName, 'body.name');
      if (!exists(edit.name)) throw notFound(`event ${eventId} has no squad "${edit.name}"`);
      if (edit.newName === edit.name) throw validationFailed("body.name is the squad's name already");
      if (exists(edit.newName)) throw conflict(`squad "${edit.newName}" exists already in event ${eventId}; move its gymnasts instead`);
      return { participantIds: [], squad: edit.name, to: edit.newName };
    case 'delete':
      if (!exists(edit.name)) throw notFound(`event ${eventId} has no squad "${edit.name}"`);
      return { participantIds: [], squad: edit.name, to: null };
  }
}
