/**
 * The corpus browser's shapes: the index kept beside a run (byte spans of every user's records),
 * and what the HTTP API answers for each page.
 */

/** A byte span of one line (or of several adjacent lines) in a run file. */
export type Span = [offset: number, length: number];

/** One exported row's place in its file: where, whose, which task. */
export interface RowSpan {
  offset: number;
  length: number;
  user: string;
  task: string;
}

/** An exported jsonl file of the run (e.g. `export/sft/train.jsonl`) with every row's span. */
export interface SampleFile {
  /** Path relative to the run directory. */
  path: string;
  /** `sft`, `rl`, … (the folder under export/). */
  kind: string;
  /** `train`, `test`, … (the file name). */
  split: string;
  rows: RowSpan[];
}

/** One user as the index lists it. */
export interface IndexedUser {
  userId: string;
  split: string;
  sessions: number;
  turns: number;
  imageTurns: number;
  questions: number;
  /** `user`: the whole user quarantined; `units`: some rounds or sessions; null: none. */
  quarantine: 'user' | 'units' | null;
  /** The checks that failed on this user (rules, judges, dedup). */
  flags: string[];
  /** Preference items of the plan (what "search by item" matches). */
  items: string[];
  /** Question tasks of the plan. */
  tasks: string[];
  /** Spans of this user's record in plan, dialogues and memory (null when the file has none). */
  plan: Span | null;
  dialogue: Span | null;
  memory: Span | null;
}

/** What the index was built from: invalidated when any of it changes. */
export interface IndexKey {
  /** sha256 of manifest.json (empty string when the run has none). */
  manifest: string;
  /** Size and modification time of every file read, by path relative to the run. */
  files: Record<string, [size: number, mtimeMs: number]>;
}

export interface ViewIndex {
  format: number;
  key: IndexKey;
  users: IndexedUser[];
  samples: SampleFile[];
}

/** One row of the index page (the index without its byte spans). */
export type IndexRow = Omit<IndexedUser, 'plan' | 'dialogue' | 'memory'>;

/** A quarantined round or session as validation.json lists it. */
export interface QuarantinedUnit {
  userId: string;
  unit: 'turn' | 'session';
  id: string;
  check: string;
  reason: string;
  turns: string[];
}

/** A validation rule's example (a record behind an alarm). */
export interface RuleExample {
  check: string;
  userId: string;
  location: string;
  reason: string;
}

/** One line of the run page's fidelity table. */
export interface FidelityLine {
  name: string;
  description: string;
  value: number;
  unit: string;
  target: number | null;
  kind: string;
  count: number | null;
  of: number | null;
  ok: boolean | null;
  /** The rule whose failures are the records behind this figure, when there is one. */
  check: string | null;
}

/** One alarm of the run page, with links to the records behind it. */
export interface Alarm {
  check: string;
  description: string;
  failures: number;
  users: number;
  /** User pages (with a turn or question anchor) of the first records. */
  records: Array<{ userId: string; location: string; reason: string }>;
}

/** The run page: go/no-go, stages, fidelity, alarms, quarantine reasons. */
export interface RunPage {
  name: string;
  status: string;
  offline: Record<string, boolean>;
  verdict: 'go' | 'no-go';
  /** Why no-go (empty for go). */
  reasons: string[];
  totals: Record<string, number>;
  stages: Array<{
    name: string;
    in: number | null;
    out: number | null;
    quarantined: number | null;
    status: string;
  }>;
  fidelity: FidelityLine[];
  alarms: Alarm[];
  quarantine: Array<{ stage: string; reason: string; count: number; users: string[] }>;
}

/** A chat message with its token count (the samples page). */
export interface ChatMessage {
  role: string;
  content: string;
  tokens: number;
}

export interface SampleRow {
  id: string;
  user: string;
  task: string;
  file: string;
  messages: ChatMessage[];
  tokens: number;
  /** Other columns of the row (answer, images, solution…), as JSON text. */
  extra: Record<string, string>;
}

/** Why a turn, session or question was taken out by validation. */
export interface Removal {
  check: string;
  reason: string;
  /** The unit's id (`u:S1:T4`, `u:S2`) or the question id. */
  id: string;
}

export interface ViewTurn {
  id: string;
  round: number;
  time: string;
  speaker: string;
  text: string;
  images: Array<{ id: string; url: string | null; caption: string }>;
  /** The planned slots this turn states. */
  slots: Array<{ id: string; kind: string; statement: string }>;
  noise: string | null;
  quarantined: Removal | null;
  /** Questions whose evidence is this turn. */
  evidenceOf: string[];
}

export interface ViewSession {
  index: number;
  start: string;
  end: string;
  topics: string[];
  quarantined: Removal | null;
  turns: ViewTurn[];
}

export interface ViewQuestion {
  id: string;
  family: string;
  task: string;
  time: string;
  question: string;
  answer: string;
  answerType: string;
  choices: string[] | null;
  correctIndex: number | null;
  unanswerable: boolean;
  evidenceSlots: string[];
  evidenceTurns: string[];
  dropped: Removal | null;
}

/** A planned preference as the user page shows it (as the plan record holds it). */
export interface ViewPreference {
  id: string;
  item: string;
  polarity: string;
  category: string;
  validFrom: string;
  validUntil: string | null;
  origin: string;
}

/** The user page: one user's plan, dialogue, questions and memory, with what validation removed. */
export interface UserPage {
  userId: string;
  split: string;
  quarantine: IndexRow['quarantine'];
  flags: string[];
  persona: { name: string; description: string } | null;
  charts: { timeline: string; personality: string } | null;
  preferences: ViewPreference[];
  drift: Array<{ id: string; type: string; time: string; cause: string; item: string }>;
  goals: Array<{ description: string; states: Array<{ time: string; status: string }> }>;
  sessions: ViewSession[];
  questions: ViewQuestion[];
  /** Memory targets by task (the memory record's stats); the targets themselves: {@link UserMemoryPage}. */
  targetCounts: Record<string, number>;
  /** Whole-user quarantine records (every stage). */
  userQuarantine: Array<{ stage: string; check: string; reason: string }>;
  /** Check failures found on this user (rule, judge and dedup examples). */
  examples: RuleExample[];
  /** Run files that hold no record of this user. */
  missing: string[];
}

/** A user's memory targets and reasoning trajectories (fetched when the reader opens them). */
export interface UserMemoryPage {
  targets: Array<{ id: string; task: string; turnId: string; time: string; target: string }>;
  trajectories: Array<{
    qaId: string;
    question: string;
    messages: string[];
    answer: string;
    retrievals: number;
    firstRetrievalHit: boolean;
  }>;
}
