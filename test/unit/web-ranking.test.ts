import { describe, expect, it } from 'vitest';
import { applyLiveScore, entryKey, rankEntries, tiesAnother, type BoardEntry } from '../../web/board/ranking.js';

const entry = (name: string, score: number | null, extra: Partial<BoardEntry> = {}): BoardEntry => ({
  competitionId: 1,
  kind: 'individual',
  key: entryKey(null, name.length),
  participantId: null,
  wertungenId: null,
  name,
  club: '',
  squad: '',
  score,
  outOfCompetition: false,
  ...extra,
});

describe('scoreboard ranking', () => {
  it('ranks by score with shared ranks for ties and skips after them (1, 2, 2, 4)', () => {
    const ranked = rankEntries([entry('Dan', 11), entry('Ann', 12.4), entry('Bob', 13.1), entry('Cy', 12.4)]);
    expect(ranked.map((row) => [row.rank, row.name])).toEqual([
      [1, 'Bob'],
      [2, 'Ann'],
      [2, 'Cy'],
      [4, 'Dan'],
    ]);
  });

  it('treats float4 noise as a tie and keeps out-of-competition and unscored entries unranked at the end', () => {
    const ranked = rankEntries([
      entry('Noise', 12.449999809),
      entry('Exact', 12.45),
      entry('Guest', 15, { outOfCompetition: true }),
      entry('None', null),
    ]);
    expect(ranked.map((row) => [row.rank, row.name])).toEqual([
      [1, 'Exact'],
      [1, 'Noise'],
      [null, 'Guest'],
      [null, 'None'],
    ]);
  });

  it('applies a live score by wertungenId or participantId and reports an unknown participant', () => {
    const entries = [entry('Ann', 10, { wertungenId: 5, participantId: 50 }), entry('Bob', 9, { participantId: 60 })];
    expect(applyLiveScore(entries, { scoreId: 5, score: 11 })?.name).toBe('Ann');
    expect(applyLiveScore(entries, { scoreId: 6, participantId: 60, score: 12 })?.wertungenId).toBe(6);
    expect(applyLiveScore(entries, { scoreId: 7, participantId: 70, score: 1 })).toBeNull();
    expect(entries.map((row) => row.score)).toEqual([11, 12]);
  });
});

describe('scoreboard ranking with the apparatus rule (FIG Technical Regulations: higher E, then higher D)', () => {
  // Ann 14.500 = E 8.700 + D 5.800; Bob 14.500 = E 8.500 + D 6.000; Cy 14.500 = E 8.500 + D 5.900.
  const tied = () => [
    entry('Bob', 14.5, { e: 8.5, d: 6, wertungenId: 2 }),
    entry('Cy', 14.5, { e: 8.5, d: 5.9, wertungenId: 3 }),
    entry('Ann', 14.5, { e: 8.7, d: 5.8, wertungenId: 1 }),
  ];

  it('e-then-d orders equal scores by E, then D; shared keeps them together (dense: 1, 1, 1, 2)', () => {
    expect(rankEntries(tied(), 'descending', { rule: 'e-then-d' }).map((row) => [row.rank, row.name])).toEqual([
      [1, 'Ann'],
      [2, 'Bob'],
      [3, 'Cy'],
    ]);
    const withLower = [...tied(), entry('Dan', 14, { wertungenId: 4 })];
    expect(rankEntries(withLower, 'descending', { rule: 'shared', notation: 'dense' }).map((row) => [row.rank, row.name])).toEqual([
      [1, 'Ann'],
      [1, 'Bob'],
      [1, 'Cy'],
      [2, 'Dan'],
    ]);
  });

  it('a live score forgets the routine’s E and D, so its tie stays shared until the server’s ranking has them', () => {
    const entries = tied();
    applyLiveScore(entries, { scoreId: 3, score: 14.5 });
    expect(entries[1]).toMatchObject({ e: 8.5, d: 5.9 });
    applyLiveScore(entries, { scoreId: 1, score: 14.6 });
    applyLiveScore(entries, { scoreId: 1, score: 14.5 });
    expect(rankEntries(entries, 'descending', { rule: 'e-then-d' }).map((row) => [row.rank, row.name])).toEqual([
      [1, 'Ann'],
      [1, 'Bob'],
      [1, 'Cy'],
    ]);
  });

  it('asks the server for E and D only when a live score ties another ranked score of its competition', () => {
    const entries = [
      entry('Ann', 13.2, { wertungenId: 1 }),
      entry('Bob', 14.45, { wertungenId: 2 }),
      entry('Guest', 13.9, { wertungenId: 3, outOfCompetition: true }),
      entry('Other', 13.7, { wertungenId: 4, competitionId: 2 }),
    ];
    const ann = applyLiveScore(entries, { scoreId: 1, score: 13.7 })!;
    expect(tiesAnother(entries, ann)).toBe(false);
    applyLiveScore(entries, { scoreId: 1, score: 13.9 });
    expect(tiesAnother(entries, ann)).toBe(false);
    applyLiveScore(entries, { scoreId: 1, score: 14.449999809 });
    expect(tiesAnother(entries, ann)).toBe(true);
  });
});
