/** The continuing-education ledger: how much a member keeps, and when they are reminded (issue 33, part 4). */
export const LICENCES = {
  /** Licences a member records: an agent licensed in many states holds a handful. */
  maxPerMember: 10,
  /** The hours a course or an outside entry may carry, and a state's cycle may ask for. */
  maxEntryHours: 100,
  maxCycleHours: 500,
  /** A cycle is one to four years in every state; a few ask for up to six. */
  maxCycleMonths: 72,
  /** Outside CE a member records in all (several licences' cycles many times over), and their certificates' bytes. */
  maxOutsideEntries: 200,
  maxCertificateBytesInAll: 100 * 1024 * 1024,
  /** Transcripts and zips a member downloads an hour (each zip reads every certificate of a cycle). */
  downloads: { max: 30, windowMs: 60 * 60 * 1000 },
  /** Released certificate files deleted from the store a batch at a time. */
  releaseBatch: 200,
  /** A certificate of outside CE: a PDF or a photo of it. */
  certificateMaxBytes: 5 * 1024 * 1024,
  /** Entries a ledger page shows; the PDF transcript and the zip hold the whole cycle. */
  entriesPerPage: 50,
  /** Days before renewal a member is reminded while hours are missing, each once. */
  reminderDays: [180, 90, 30],
  /** Licences considered by the reminder job at a time, and batches a run. */
  reminderBatch: 200,
  reminderBatchesPerRun: 20,
} as const;
