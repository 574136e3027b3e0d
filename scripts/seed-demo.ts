// `npm run seed:demo [-- --force] [-- --json]`: migrates DATABASE_URL (or the embedded server, the
// same one `npm start` uses) and fills it with one demo event, then prints the ids to try the API with.
import { parseArgs } from 'node:util';
import { createCommandRunner } from '../commands/run-command.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { migrateDatabase, openDatabase } from '../src/db/database.js';
import { DemoSeedRefused, seedDemo, type DemoSummary } from './demo-seed.js';
import { createPool, endPool } from '../src/db/pool.js';
import { createTables, type Tables } from '../src/db/tables.js';
import { createLogger } from '../src/logger.js';

function formatSummary(summary: DemoSummary, tables: Tables, baseUrl: string): string {
  const { event, scores } = summary;
  const lines = [
    `Demo event ${event.id}: ${event.name} (${event.from} to ${event.to})`,
    `Clubs: ${summary.clubs.map((club) => `${club.id} ${club.name}`).join(', ')}`,
    `Participants: ${summary.participants.individual} individual (${summary.participants.female} female, ${summary.participants.male} male, ages ${summary.participants.minAge}-${summary.participants.maxAge}), ${summary.participants.groupMembers} group members (var_typ Gruppe)`,
    '',
    'Competitions:',
    ...summary.competitions.map(
      (c) =>
        `  ${c.id} ${c.name} [${c.kind}${c.attempts > 1 ? `, ${c.attempts} attempts` : ''}]: disciplines ${c.disciplineIds.join(', ')}; ${c.scoreRows} score rows; squads ${c.squads.join(', ')}`,
    ),
    '',
    `Formula records (${tables.formeln}): ${summary.formulas.map((f) => `${f.id} "${f.name}" = ${f.formula}`).join('; ')}`,
    'Disciplines (field ids in sort order; [A] = formula letter, * = final field):',
    ...summary.disciplines.flatMap((d) => {
      const source =
        d.formulaId !== null ? `record ${d.formulaId}${d.ownFormula ? `, overriding var_formel "${d.ownFormula}"` : ''}` : 'var_formel';
      let letter = 0;
      const fields = d.fields.map((f) => {
        if (f.isFinal) return `${f.id} ${f.name}*`;
        const variable = d.kind === 'group' || d.kind === 'team' ? f.shortName : String.fromCharCode(65 + letter++);
        return `${f.id} ${f.name} [${variable}]`;
      });
      return [
        `  ${d.id} ${d.name} (${d.kind}): ${d.formula} (${source}); mask ${d.inputMask}, ${d.decimals} decimals`,
        `      fields ${fields.join(', ')}`,
      ];
    }),
    '',
    `Groups: ${summary.groups.map((g) => `${g.id} ${g.name} (start ${g.startNumber}, club ${g.clubId}, squad ${g.squad})`).join('; ')}`,
    `Teams: ${summary.teams.map((m) => `${m.id} ${m.name} (start ${m.startNumber}, club ${m.clubId}, squad ${m.squad})`).join('; ')}`,
    '',
    `Scores: ${scores.individualRows} individual rows (${scores.capturedValues} discipline scores captured, ${scores.completeRows} rows complete), ${scores.groupRows} group rows, ${scores.teamRows} team rows`,
    `  captured: score ${scores.capturedExample.scoreId} (${scores.capturedExample.participant}, ${scores.capturedExample.discipline} = ${scores.capturedExample.finalScore})`,
    `  pending:  score ${scores.pendingExample.scoreId} (${scores.pendingExample.participant}, competition ${scores.pendingExample.competitionId}, ${scores.pendingExample.discipline})`,
    `  group:    score ${scores.groupExample.scoreId} (group ${scores.groupExample.groupId}, discipline ${scores.groupExample.disciplineId} = ${scores.groupExample.finalScore})`,
    `  team:     score ${scores.teamExample.scoreId} (team ${scores.teamExample.teamId}, discipline ${scores.teamExample.disciplineId}, attempt ${scores.teamExample.attempt} = ${scores.teamExample.finalScore})`,
  ];
  const pending = summary.disciplines.find((d) => d.id === scores.pendingExample.disciplineId)!;
  const firstField = pending.fields[0]!;
  lines.push(
    '',
    `Try it (with npm start running on ${baseUrl}):`,
    `  curl -s '${baseUrl}/api/scores?eventId=${event.id}&limit=5'`,
    `  curl -s '${baseUrl}/api/discipline-fields?disciplineId=${pending.id}'`,
    `  curl -s -X POST ${baseUrl}/api/jury-results -H 'Content-Type: application/json' \\`,
    `       -d '{"participantId": ${scores.pendingExample.scoreId}, "disciplineFieldId": ${firstField.id}, "performance": 3.4, "attempt": 1, "type": 0}'`,
  );
  return lines.join('\n');
}

const { values: flags } = parseArgs({
  options: { force: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } },
  strict: true,
});

try {
  const config = loadConfig();
  // The summary is the output; routine log lines would bury it (LOG_LEVEL still turns them on).
  const logger = createLogger(process.env.LOG_LEVEL ? config.logLevel : 'warn');
  const database = await openDatabase(config, logger);
  try {
    const tables = createTables(config.tablePrefix);
    await migrateDatabase(database.url, tables, logger);
    const pool = createPool({ connectionString: database.url, tables, max: 1, applicationName: 'seed-demo' }, logger);
    try {
      // Marked like a service command: the legacy-write triggers must not announce demo rows as live scores.
      const summary = await createCommandRunner(pool).run((tx) => seedDemo(tx, { force: flags.force }));
      const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
      console.log(flags.json ? JSON.stringify(summary, null, 2) : formatSummary(summary, tables, `http://${host}:${config.port}`));
    } finally {
      await endPool(pool);
    }
  } finally {
    await database.stop();
  }
} catch (error) {
  if (error instanceof DemoSeedRefused) {
    console.error(
      `Nothing seeded: ${error.message}. seed:demo fills an empty database only; point DATABASE_URL (or DATA_DIR) at a fresh one, or run \`npm run seed:demo -- --force\` to add the demo event beside the existing data.`,
    );
  } else {
    console.error(error instanceof ConfigError ? error.message : error);
  }
  process.exit(1);
}
