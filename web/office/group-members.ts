/**
 * Group membership as the office keeps it. The legacy layout has no table linking participants to
 * a group (a group score row carries the group id and no participant), so the member list of a
 * group lives in this browser's localStorage, and spec "Group candidates" rule 5 (members already
 * in the group are removed on the client) is applied against it.
 */
import type { Candidate } from './office-api.js';

export type GroupMember = Pick<Candidate, 'id' | 'firstName' | 'lastName' | 'startNumber' | 'clubName'>;

export interface CandidateFilters {
  hidePlanned: boolean;
  hideOtherClubs: boolean;
}

export const NO_FILTERS: Readonly<CandidateFilters> = Object.freeze({ hidePlanned: false, hideOtherClubs: false });

/** Rule 6: the reset action is offered only while a filter is on. */
export function filtersActive(filters: CandidateFilters): boolean {
  return filters.hidePlanned || filters.hideOtherClubs;
}

/** Rule 5. */
export function withoutMembers<T extends { id: number }>(candidates: readonly T[], members: readonly GroupMember[]): T[] {
  const memberIds = new Set(members.map((member) => member.id));
  return candidates.filter((candidate) => !memberIds.has(candidate.id));
}

const STORAGE_KEY = 'gym.office.groupMembers.v1';

export class GroupMemberStore {
  constructor(private readonly storage: Storage = localStorage) {}

  private readAll(): Record<string, GroupMember[]> {
    try {
      const stored = JSON.parse(this.storage.getItem(STORAGE_KEY) ?? '{}') as unknown;
      return stored && typeof stored === 'object' && !Array.isArray(stored) ? (stored as Record<string, GroupMember[]>) : {};
    } catch {
      return {};
    }
  }

  members(groupId: number): GroupMember[] {
    const list = this.readAll()[groupId];
    return Array.isArray(list) ? list.filter((member) => Number.isInteger(member?.id)) : [];
  }

  private write(groupId: number, members: GroupMember[]): void {
    const all = this.readAll();
    if (members.length === 0) delete all[groupId];
    else all[groupId] = members;
    this.storage.setItem(STORAGE_KEY, JSON.stringify(all));
  }

  add(groupId: number, member: GroupMember): void {
    const members = this.members(groupId).filter((existing) => existing.id !== member.id);
    const { id, firstName, lastName, startNumber, clubName } = member;
    this.write(groupId, [...members, { id, firstName, lastName, startNumber, clubName }]);
  }

  remove(groupId: number, participantId: number): void {
    this.write(
      groupId,
      this.members(groupId).filter((member) => member.id !== participantId),
    );
  }
}
