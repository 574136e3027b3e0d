import { t } from '../shared/i18n.js';
import { m } from './messages.js';

/** How the office pages write a person's name; rows of the legacy layout may lack either part. */
export function personName(person: { firstName: string | null; lastName: string | null }): string {
  return [person.firstName, person.lastName].filter((part) => part && part.trim() !== '').join(' ') || t('jury.unnamed');
}

const NOUNS = {
  squad: ['count.squad', 'count.squads'],
  participant: ['count.participant', 'count.participants'],
  candidate: ['count.candidate', 'count.candidates'],
  member: ['count.member', 'count.members'],
  break: ['count.break', 'count.breaks'],
} as const;

/** "1 participant", "3 participants" in the page's language. */
export function countOf(count: number, noun: keyof typeof NOUNS): string {
  const [one, other] = NOUNS[noun];
  return count === 1 ? m(one) : m(other, { count });
}
