/**
 * Exactly-once check and latency of one measured phase, from what every scoreboard received and
 * what the portals sent. A portal sends its saves one after the other on one connection and each
 * portal owns its score row, so the k-th event of a scoreId answers the k-th successful save of
 * that score; the final score the save answered must be the one the event carries.
 */
import { distribution, type Distribution } from './stats.js';

/** Successful saves in send order; `sentMs` on the runner's monotonic time axis. */
export interface SentRequests {
  scoreIds: number[];
  sentMs: number[];
  finals: Array<number | null>;
  /** The outbox seqs the phase produced, in order (service only): each board must get exactly these. */
  expectedSeqs?: number[];
  /** Without per-save records (autocannon): how many events the server says it emitted. */
  expectedCount?: number;
}

export interface ReceivedEvents {
  scoreIds: number[];
  seqs: number[];
  finals: Array<number | null>;
  receivedMs: number[];
}

export interface DeliveryReport {
  clients: number;
  /** Events each client should have received. */
  expectedPerClient: number;
  receivedTotal: number;
  /** Summed over clients. */
  lost: number;
  duplicated: number;
  /** Event whose final score differs from the reply of the save it was matched with (order broken). */
  mismatched: number;
  /** Service only: a seq not greater than the one before it on the same client. */
  seqOutOfOrder: number;
  /** Service only: a seq no save of this phase produced. */
  unexpected: number;
  /** Reconnects of the clients during the phase (filled in by the scoreboard process). */
  reconnects?: number;
  latencyMs: Distribution;
  /** Per client, the median latency: a slow client stands out here, not in the pooled figures. */
  clientMedianMs: Distribution;
  /** Every latency, when asked for: reports of several client processes merge into one distribution. */
  samplesMs?: number[];
  /** Every client's median latency, when samples are asked for (phases run in rounds merge them). */
  clientMedianSamplesMs?: number[];
}

export function analyzeDelivery(
  sent: SentRequests,
  clients: readonly ReceivedEvents[],
  checkSeq: boolean,
  keepSamples = false,
): DeliveryReport {
  const sentByScore = new Map<number, number[]>();
  sent.scoreIds.forEach((scoreId, index) => {
    let list = sentByScore.get(scoreId);
    if (!list) sentByScore.set(scoreId, (list = []));
    list.push(index);
  });
  const expectedSeqs = checkSeq ? new Set(sent.expectedSeqs ?? []) : null;
  const expectedPerClient = expectedSeqs ? expectedSeqs.size : (sent.expectedCount ?? sent.scoreIds.length);
  const countOnly = sent.scoreIds.length === 0;
  const latencies: number[] = [];
  const clientMedians: number[] = [];
  let lost = 0;
  let duplicated = 0;
  let mismatched = 0;
  let seqOutOfOrder = 0;
  let unexpected = 0;
  let receivedTotal = 0;

  for (const client of clients) {
    receivedTotal += client.scoreIds.length;
    const clientLatencies: number[] = [];
    const ordinal = new Map<number, number>();
    client.scoreIds.forEach((scoreId, index) => {
      const k = ordinal.get(scoreId) ?? 0;
      ordinal.set(scoreId, k + 1);
      const request = sentByScore.get(scoreId)?.[k];
      if (request === undefined) return;
      if (client.finals[index] !== sent.finals[request]) mismatched += 1;
      clientLatencies.push(client.receivedMs[index]! - sent.sentMs[request]!);
    });
    // By score and, for the service, by seq: a loss and a duplicate of one score cancel out in one view only.
    let clientLost = countOnly ? Math.max(0, expectedPerClient - client.scoreIds.length) : 0;
    let clientDuplicated = countOnly ? Math.max(0, client.scoreIds.length - expectedPerClient) : 0;
    for (const [scoreId, requests] of sentByScore) {
      const got = ordinal.get(scoreId) ?? 0;
      if (got < requests.length) clientLost += requests.length - got;
      else clientDuplicated += got - requests.length;
    }
    if (!countOnly) for (const [scoreId, got] of ordinal) if (!sentByScore.has(scoreId)) clientDuplicated += got;
    if (expectedSeqs) {
      const seen = new Set<number>();
      let repeatedSeqs = 0;
      let previous = -Infinity;
      for (const seq of client.seqs) {
        if (seq <= previous) seqOutOfOrder += 1;
        previous = seq;
        if (!expectedSeqs.has(seq)) unexpected += 1;
        else if (seen.has(seq)) repeatedSeqs += 1;
        seen.add(seq);
      }
      let missingSeqs = 0;
      for (const seq of expectedSeqs) if (!seen.has(seq)) missingSeqs += 1;
      clientLost = Math.max(clientLost, missingSeqs);
      clientDuplicated = Math.max(clientDuplicated, repeatedSeqs);
    }
    lost += clientLost;
    duplicated += clientDuplicated;
    for (const latency of clientLatencies) latencies.push(latency);
    clientMedians.push(distribution(clientLatencies).p50);
  }
  return {
    clients: clients.length,
    expectedPerClient,
    receivedTotal,
    lost,
    duplicated,
    mismatched,
    seqOutOfOrder,
    unexpected,
    latencyMs: distribution(latencies),
    clientMedianMs: distribution(clientMedians),
    ...(keepSamples ? { samplesMs: latencies.map((value) => Math.round(value * 100) / 100), clientMedianSamplesMs: clientMedians } : {}),
  };
}
