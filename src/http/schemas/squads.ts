import { Type } from '@sinclair/typebox';
import {
  NAMING_PREFIXES,
  SQUAD_CRITERIA_DEFAULTS,
  SQUAD_CRITERIA_LIMITS,
  SQUAD_NAME_MAX_LENGTH,
  type Gender,
  type GenderGroup,
} from '../../domain/squad-planner.js';

const defaults = SQUAD_CRITERIA_DEFAULTS;
const limits = SQUAD_CRITERIA_LIMITS;

/** Generous for any sensible list of ranges; the cap only keeps the lenient parser's input bounded. */
const AGE_CATEGORY_RANGES_MAX_LENGTH = 200;

/** The eight criteria of "Squad auto-assign" with the spec's defaults and ranges (the planner's constants). */
export const SquadCriteriaSchema = Type.Object({
  maxParticipantsPerSquad: Type.Integer({
    minimum: limits.maxParticipantsPerSquad.min,
    maximum: limits.maxParticipantsPerSquad.max,
    default: defaults.maxParticipantsPerSquad,
  }),
  separateGenders: Type.Boolean({
    default: defaults.separateGenders,
    description: 'pools male, female and mixed (other genders); false: one mixed pool',
  }),
  keepClubsTogether: Type.Boolean({ default: defaults.keepClubsTogether }),
  groupByAgeCategory: Type.Boolean({ default: defaults.groupByAgeCategory }),
  ageCategoryRanges: Type.String({
    maxLength: AGE_CATEGORY_RANGES_MAX_LENGTH,
    default: defaults.ageCategoryRanges,
    description: 'comma-separated inclusive ranges low-high; invalid ranges are skipped',
  }),
  numberOfProposals: Type.Integer({
    minimum: limits.numberOfProposals.min,
    maximum: limits.numberOfProposals.max,
    default: defaults.numberOfProposals,
  }),
  namingPrefix: Type.Union(
    NAMING_PREFIXES.map((prefix) => Type.Literal(prefix)),
    { default: defaults.namingPrefix },
  ),
  breakCount: Type.Integer({ minimum: limits.breakCount.min, maximum: limits.breakCount.max, default: defaults.breakCount }),
  separateCompetitions: Type.Boolean({
    default: defaults.separateCompetitions,
    description: 'not in the spec: participants of different competitions never share a squad',
  }),
});

// Plain enums, not unions of literals: the response serializer resolves every anyOf by running a
// validator per value, which for 10 proposals of 1,000 participants costs more than the planning.
const stringEnum = <T extends string>(values: readonly T[]) => Type.Unsafe<T>({ type: 'string', enum: [...values] });
const GenderSchema = stringEnum<Gender>(['male', 'female', 'other']);
const GenderGroupSchema = stringEnum<GenderGroup>(['male', 'female', 'mixed']);

const SquadMemberSchema = Type.Object({
  id: Type.Integer(),
  firstname: Type.String(),
  lastname: Type.String(),
  club: Type.String({ description: 'empty when the participant has no club' }),
  clubId: Type.Integer({ description: '0 when the participant has no club' }),
  gender: GenderSchema,
  age: Type.Integer({ description: 'completed years on the reference date; 0 without a birth date' }),
  birthYear: Type.Integer({ description: '0 without a birth date' }),
});

export const SquadProposalSchema = Type.Object({
  id: Type.Integer(),
  squads: Type.Array(
    Type.Object({
      name: Type.String({ minLength: 1, maxLength: SQUAD_NAME_MAX_LENGTH }),
      colorName: Type.String(),
      genderGroup: GenderGroupSchema,
      ageCategory: Type.Unsafe<string | null>({ type: ['string', 'null'], description: 'null unless groupByAgeCategory' }),
      participants: Type.Array(SquadMemberSchema),
      isBreak: Type.Boolean(),
      competitionIds: Type.Optional(
        Type.Array(Type.Integer(), {
          description: 'not in the spec; with separateCompetitions: the competitions its participants start in',
        }),
      ),
    }),
  ),
  stats: Type.Object({
    totalSquads: Type.Integer({ description: 'squads with participants; breaks are counted in breakSquads' }),
    totalParticipants: Type.Integer(),
    avgParticipantsPerSquad: Type.Number(),
    minParticipantsPerSquad: Type.Integer(),
    maxParticipantsPerSquad: Type.Integer(),
    breakSquads: Type.Integer(),
    genderDistribution: Type.Object({ male: Type.Integer(), female: Type.Integer() }),
  }),
});
