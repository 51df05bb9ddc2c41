/** One turn of the history a question is asked against. */
export interface EvalTurn {
  /** ISO time when known (LoCoMo sessions, Persona-MME rounds); null for PersonaMem messages. */
  time: string | null;
  speaker: string;
  role: 'user' | 'assistant' | 'system';
  text: string;
  /** A stable id inside the conversation (LoCoMo dia_id, `S<s>:<t>` otherwise). */
  id: string;
}

/** The published formats `persona-forge eval` reads (each also written by `persona-forge export`). */
export type EvalFormat = 'persona-mme' | 'personamem' | 'locomo';

/** One benchmark question in a common shape. */
export interface EvalItem {
  /** Stable across runs: the resume key and the key `eval compare` pairs items by. */
  id: string;
  format: EvalFormat;
  /** Persona-MME question_type, PersonaMem question_type, LoCoMo category name. */
  task: string;
  /** Persona-MME aspect (`type`: Memory Recall, Intent Inference, …); null elsewhere. */
  aspect: string | null;
  /** Persona-MME context length bucket (32k/128k) or PersonaMem file context; null when not given. */
  contextLength: string | null;
  /** Which conversation: the key of its history. */
  conversationId: string;
  question: string;
  /** The question's time (turns after it are never shown). */
  time: string | null;
  /** Option texts in label order for multiple choice, else empty. */
  choices: string[];
  /** `mc` (option letter), `open` (LoCoMo token F1 or the judge), `adversarial` (LoCoMo category 5). */
  kind: 'mc' | 'open' | 'adversarial';
  /** The gold answer: an option label "(c)" for mc, the answer text otherwise. */
  answer: string;
  /** LoCoMo category number (1–5), else null. */
  category: number | null;
  /** Persona-MME personality alignment: the chosen and rejected replies. */
  alignment?: { chosen: string; rejected: string };
  /** How many history turns the question may see (PersonaMem end_index), else all before `time`. */
  historyEnd: number | null;
}

/** A loaded benchmark: its items and every conversation's history. */
export interface EvalSet {
  format: EvalFormat;
  source: string;
  items: EvalItem[];
  histories: Map<string, EvalTurn[]>;
}
