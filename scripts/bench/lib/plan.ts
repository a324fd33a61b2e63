/** How long and how often each section runs: the full run, and `--quick` for development. */
export interface Plan {
  quick: boolean;
  reps: number;
  modelMs: number;
  workerConcurrency: number;
  overhead: { levels: number[]; singleRequests: number; seconds: number };
  cost: { jobs: number; submitters: number; timeoutSeconds: number };
  scale: {
    jobs: number;
    submitters: number;
    reps: number;
    shapes: [apis: number, workers: number][];
  };
  reads: { seconds: number; connections: number };
  documents: { rounds: number; pdfPages: number; images: number };
  webpages: { rounds: number; perRound: number };
  /** §9: the large account's extractions, and sequential requests per query and account. */
  size: { rows: number; requests: number };
  /** §11: closed-loop clients and seconds per measurement. */
  pgbouncer: { clients: number; seconds: number };
  /** §12: the size of each uploaded PDF and how many go per store and repetition. */
  blobStores: { megabytes: number; files: number };
}

export function makePlan(quick: boolean, reps?: number): Plan {
  return {
    quick,
    reps: reps ?? (quick ? 1 : 3),
    modelMs: 1000,
    workerConcurrency: 1000,
    overhead: quick
      ? { levels: [1, 50, 200], singleRequests: 5, seconds: 2 }
      : { levels: [1, 50, 200], singleRequests: 10, seconds: 5 },
    cost: quick
      ? { jobs: 500, submitters: 50, timeoutSeconds: 90 }
      : { jobs: 1000, submitters: 50, timeoutSeconds: 120 },
    scale: {
      jobs: quick ? 300 : 600,
      submitters: 50,
      reps: quick ? 1 : 2,
      // --quick measures the two ends only.
      shapes: quick
        ? [
            [1, 1],
            [2, 2],
          ]
        : [
            [1, 1],
            [2, 1],
            [1, 2],
            [2, 2],
          ],
    },
    reads: quick ? { seconds: 2, connections: 50 } : { seconds: 5, connections: 50 },
    documents: quick
      ? { rounds: 1, pdfPages: 10, images: 4 }
      : { rounds: 3, pdfPages: 20, images: 10 },
    webpages: { rounds: quick ? 1 : 2, perRound: quick ? 1 : 2 },
    size: quick ? { rows: 100_000, requests: 50 } : { rows: 1_000_000, requests: 200 },
    pgbouncer: quick ? { clients: 20, seconds: 3 } : { clients: 20, seconds: 8 },
    blobStores: quick ? { megabytes: 5, files: 4 } : { megabytes: 20, files: 12 },
  };
}
