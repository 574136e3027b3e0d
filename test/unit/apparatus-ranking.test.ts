/**
 * The apparatus tie-break rules against worked examples. Sources: FIG Technical Regulations
 * (ties on an apparatus: the higher E score, then the higher D score, else a shared rank) and the
 * rank notations 1, 1, 3 (standard competition ranking) and 1, 1, 2 (dense, used by national
 * programs such as Swiss GeTu lists).
 */
import { describe, expect, it } from 'vitest';
import {
  rankApparatus,
  scorePartFields,
  scoreParts,
  type ApparatusEntry,
  type ApparatusRanking,
  type FieldDefinition,
} from '../../src/domain/apparatus-ranking.js';

const routine = (score: number | null, e?: number | null, d?: number | null, outOfCompetition = false): ApparatusEntry => ({
  score,
  e,
  d,
  outOfCompetition,
});
const ranks = (entries: ApparatusEntry[], ranking: ApparatusRanking) => rankApparatus(entries, ranking).map((row) => row.rank);

describe('e-then-d (FIG Technical Regulations, ties on an apparatus)', () => {
  it('the higher E score ranks first at an equal final score', () => {
    // Anna 14.500 = D 5.800 + E 8.700; Berta 14.500 = D 6.000 + E 8.500; Clara 14.200.
    const entries = [routine(14.5, 8.5, 6.0), routine(14.5, 8.7, 5.8), routine(14.2, 8.4, 5.8)];
    expect(rankApparatus(entries, { rule: 'e-then-d' })).toEqual([
      { rank: 2, tieBreak: 'e-then-d' },
      { rank: 1, tieBreak: 'e-then-d' },
      { rank: 3, tieBreak: null },
    ]);
  });

  it('equal E: the higher D score ranks first', () => {
    // Dora 14.000 = D 5.600 + E 8.500 - 0.100 neutral deduction; Eva 14.000 = D 5.500 + E 8.500.
    expect(ranks([routine(14, 8.5, 5.5), routine(14, 8.5, 5.6)], { rule: 'e-then-d' })).toEqual([2, 1]);
  });

  it('equal E and D: the rank is shared, 1, 1, 3 or with the dense notation 1, 1, 2', () => {
    const entries = [routine(13, 8, 5), routine(13, 8, 5), routine(12.9, 8, 4.9)];
    expect(ranks(entries, { rule: 'e-then-d' })).toEqual([1, 1, 3]);
    expect(ranks(entries, { rule: 'e-then-d', notation: 'dense' })).toEqual([1, 1, 2]);
  });

  it('an unknown E (no E field, or not entered) decides nothing: shared', () => {
    expect(rankApparatus([routine(13, null, 6), routine(13, 8, 5)], { rule: 'e-then-d' })).toEqual([
      { rank: 1, tieBreak: null },
      { rank: 1, tieBreak: null },
    ]);
    // One unknown E in a tied group of three: it cannot be placed against the others, the group shares.
    expect(ranks([routine(13, 8.2, 5), routine(13, null, 5), routine(13, 8, 5.2)], { rule: 'e-then-d' })).toEqual([1, 1, 1]);
    // E equal, D unknown on one side: shared as well.
    expect(ranks([routine(13, 8, null), routine(13, 8, 5)], { rule: 'e-then-d' })).toEqual([1, 1]);
  });

  it('compares in thousandths: float4 noise is no difference', () => {
    expect(ranks([routine(13.45, 8.1, 5.35), routine(13.449999, 8.099999, 5.35)], { rule: 'e-then-d' })).toEqual([1, 1]);
  });

  it('never reorders different scores, also for a time mask (ascending)', () => {
    expect(ranks([routine(14, 9.9, 9), routine(14.1, 5, 1)], { rule: 'e-then-d' })).toEqual([2, 1]);
    expect(ranks([routine(12.3, 1, 1), routine(11.9, 0, 0)], { rule: 'e-then-d', order: 'ascending' })).toEqual([2, 1]);
  });
});

describe('shared (default)', () => {
  it('equal scores share the rank whatever E and D are; out of competition and missing scores get none', () => {
    const entries = [routine(14.5, 8.5, 6), routine(14.5, 8.7, 5.8), routine(14.2), routine(15, 9, 6, true), routine(null)];
    expect(ranks(entries, { rule: 'shared' })).toEqual([1, 1, 3, null, null]);
    expect(ranks(entries, { rule: 'shared', notation: 'dense' })).toEqual([1, 1, 2, null, null]);
    expect(rankApparatus(entries, { rule: 'shared' }).every((row) => row.tieBreak === null)).toBe(true);
  });
});

const field = (fieldId: number, name: string, shortName: string, extra: Partial<FieldDefinition> = {}): FieldDefinition => ({
  fieldId,
  name,
  shortName,
  isFinal: false,
  isStarting: false,
  enabled: true,
  ...extra,
});

describe('E and D from the field definitions', () => {
  const final = field(99, 'Endwert', 'Endwert', { isFinal: true });

  it('judges’ deductions E1…E3: E is 10 minus their mean; D is the start-value field', () => {
    const fields = [
      field(1, 'D-Note', 'D', { isStarting: true }),
      field(2, 'E1 Abzug', 'E1'),
      field(3, 'E2 Abzug', 'E2'),
      field(4, 'E3 Abzug', 'E3'),
      final,
    ];
    const parts = scorePartFields(fields, null);
    expect(parts).toEqual({ e: { fieldIds: [2, 3, 4], deduction: true }, d: { fieldIds: [1] } });
    // Deductions 1.2, 1.4, 1.3: mean 1.3, E = 8.7.
    const values = new Map([
      [1, 5.8],
      [2, 1.2],
      [3, 1.4],
      [4, 1.3],
    ]);
    expect(scoreParts(parts, (id) => values.get(id))).toEqual({ e: 8.7, d: 5.8 });
  });

  it('an E-panel’s aggregate field is E; an E score field (not a deduction) counts as it is', () => {
    const fields = [field(1, 'Schwierigkeit', 'Schw'), field(2, 'E1', 'E1'), field(3, 'E2', 'E2'), field(4, 'Ausführung', 'E'), final];
    expect(scorePartFields(fields, 4)).toEqual({ e: { fieldIds: [4], deduction: false }, d: { fieldIds: [1] } });
    expect(scorePartFields(fields, null).e).toEqual({ fieldIds: [4], deduction: false });
  });

  it('P devices: the level is D, the execution deduction E', () => {
    const parts = scorePartFields([field(1, 'Stufe', 'Stufe', { isStarting: true }), field(2, 'AbzugAusf.', 'AbzugAusf.'), final], null);
    expect(parts).toEqual({ e: { fieldIds: [2], deduction: true }, d: { fieldIds: [1] } });
  });

  it('a device without E or D fields has none (the rule falls back to shared); a missing value gives null', () => {
    expect(scorePartFields([field(1, 'Weite', 'W'), final], null)).toEqual({ e: null, d: null });
    const parts = scorePartFields([field(1, 'D', 'D'), field(2, 'E', 'E', { enabled: false }), final], null);
    expect(parts).toEqual({ e: null, d: { fieldIds: [1] } });
    expect(scoreParts(parts, () => undefined)).toEqual({ e: null, d: null });
  });
});
