/**
 * The rotation plan's small parsers: breaks as the office types them ("2:15, 4:10": after rotation
 * 2 fifteen minutes, after 4 ten), and the server's refusal of a plan as sentences in the page's
 * language (its problems are English and name body paths).
 */
import { m } from './messages.js';

/** `after:minutes` pairs separated by commas or spaces; null when one does not read as such. */
export function parseBreaks(text: string): Array<{ afterRotation: number; minutes: number }> | null {
  const parts = text.split(/[,;\s]+/).filter(Boolean);
  const breaks = [];
  for (const part of parts) {
    const match = /^(\d{1,4}):(\d{1,3})$/.exec(part);
    if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) return null;
    breaks.push({ afterRotation: Number(match[1]), minutes: Number(match[2]) });
  }
  return breaks;
}

/** One sentence per problem the server listed (`; `-separated); one it does not know stays as sent. */
export function planProblemTexts(message: string, apparatusName: (id: number) => string): string[] {
  return message.split('; ').map((problem) => {
    let match = /squad "(.+)" is on two apparatus in rotation (\d+)/.exec(problem);
    if (match) return m('rot.problem.twoApparatus', { squad: match[1]!, rotation: match[2]! });
    match = /apparatus (\d+) has two squads in rotation (\d+)/.exec(problem);
    if (match) return m('rot.problem.twoSquads', { apparatus: apparatusName(Number(match[1])), rotation: match[2]! });
    match = /rotation (\d+) is planned twice/.exec(problem);
    if (match) return m('rot.problem.twice', { rotation: match[1]! });
    match = /squad "(.+)" is not one of the event/.exec(problem);
    if (match) return m('rot.problem.unknownSquad', { squad: match[1]! });
    match = /apparatus (\d+) is not one of the event/.exec(problem);
    if (match) return m('rot.problem.unknownApparatus', { apparatus: apparatusName(Number(match[1])) });
    return problem;
  });
}

/** A delay as the office reads it: minutes, or hours and minutes from an hour on. */
export function duration(minutes: number): string {
  return minutes < 60
    ? m('rot.minutes.short', { minutes })
    : m('rot.hours.short', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}
