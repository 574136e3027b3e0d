/**
 * Scenario: result lists (issue 19). GET /api/results with age classes over the read event
 * (1,000 participants × 6 devices) against the bare baseline of the same three SELECTs, the CSV
 * export, and the all-around board's live path: a save is sent, its `score-updated` arrives on a
 * Socket.IO client, which then fetches the ranking as the board does; measured from sending the
 * save until the ranking that shows the new score is received (target: within a second).
 */
import { io } from 'socket.io-client';
import { mb, resetCounters, stats, timedRequest, type Context } from '../harness.js';
import { progress, settings } from '../settings.js';
import { distribution, ratio } from '../stats.js';
import { readSeries, type ReadSeries } from './read.js';

interface AllAroundList {
  classes: Array<{ results: Array<{ scoreId: number; disciplines: Array<{ disciplineId: number; score: number | null }> }> }>;
}

export async function resultsScenario(context: Context) {
  const { read, disciplines } = context.data;
  // Finals of the read event exist once GET /api/scores has calculated them (the read scenario does; this makes it independent).
  await timedRequest('GET', `${context.serviceUrl}/api/scores?eventId=${read.eventId}&limit=${settings.readLimit}`);
  const query = `eventId=${read.eventId}&competitionId=${read.competitionId}&groupBy=ageClass`;
  progress(
    `results: ${settings.resultReads} × GET /api/results (${settings.readParticipants} participants × ${settings.readDisciplines} devices), CSV and bare baseline`,
  );
  const strip = ({ bodies: _bodies, ...series }: ReadSeries & { bodies: string[] }) => series;
  const json = await readSeries(context, `${context.serviceUrl}/api/results?${query}`, settings.resultReads);
  const csv = await readSeries(context, `${context.serviceUrl}/api/results.csv?${query}`, Math.max(5, settings.resultReads / 4));
  const naive = await readSeries(context, `${context.bareUrl}/naive/results?${query}`, settings.resultReads);
  const entries = (JSON.parse(json.bodies[0]!) as AllAroundList).classes.reduce((sum, group) => sum + group.results.length, 0);

  progress(`results: ${settings.resultSaves} saves → score-updated → GET /api/results showing the new score`);
  const socket = io(context.serviceUrl, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    auth: { eventId: read.eventId },
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  const disciplineId = disciplines[0]!.id;
  const latencies: number[] = [];
  let fetchesPerSave = 0;
  try {
    for (let index = 0; index < settings.resultSaves; index++) {
      const scoreId = read.scoreIds[index % read.scoreIds.length]!;
      const score = Math.round((5 + index / 100) * 1000) / 1000;
      const started = performance.now();
      const arrived = new Promise<void>((resolve) => {
        const listener = (event: { scoreId: number; disciplineId: number }) => {
          if (event.scoreId !== scoreId || event.disciplineId !== disciplineId) return;
          socket.off('score-updated', listener);
          resolve();
        };
        socket.on('score-updated', listener);
      });
      const saved = await timedRequest('POST', `${context.serviceUrl}/api/scores/save-value`, {
        competitionId: read.competitionId,
        participantId: scoreId,
        disciplineId,
        score,
      });
      if (saved.status !== 200) throw new Error(`save-value: ${saved.status} ${saved.body.slice(0, 300)}`);
      await arrived;
      // The board fetches once per event; the first fetch after the event already holds the save (the event follows its commit).
      const reply = await timedRequest('GET', `${context.serviceUrl}/api/results?${query}`);
      fetchesPerSave += 1;
      const shown = (JSON.parse(reply.body) as AllAroundList).classes
        .flatMap((group) => group.results)
        .find((result) => result.scoreId === scoreId)
        ?.disciplines.find((discipline) => discipline.disciplineId === disciplineId)?.score;
      if (shown === undefined || Math.round((shown ?? 0) * 1000) !== Math.round(score * 1000))
        throw new Error(`results after the event show ${shown}, not the saved ${score}`);
      latencies.push(performance.now() - started);
    }
  } finally {
    socket.close();
  }
  await resetCounters(context);
  const liveMs = distribution(latencies);
  return {
    entries,
    json: strip(json),
    csv: strip(csv),
    naive: strip(naive),
    ratioP50: ratio(json.latencyMs.p50, naive.latencyMs.p50),
    saveToBoardMs: liveMs,
    fetchesPerSave: fetchesPerSave / Math.max(1, settings.resultSaves),
    statementsPerRequestConstant: json.statementsConstant,
    rssMb: mb((await stats(context)).memory.rss),
  };
}
