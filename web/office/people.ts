/** How the office pages write a person's name; rows of the legacy layout may lack either part. */
export function personName(person: { firstName: string | null; lastName: string | null }): string {
  return [person.firstName, person.lastName].filter((part) => part && part.trim() !== '').join(' ') || 'Unnamed participant';
}

/** "1 participant", "3 participants". */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
