import { describe, expect, it } from 'vitest';
import { applyLiveScore, entryKey, rankEntries, type BoardEntry } from '../../web/board/ranking.js';

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
