/**
 * The trace codec inside a packed memory record (`memory-pack.ts`): every turn a trace quotes is
 * stored once in a turn table and referred to by position, and a record-valued input (a
 * PersonaTree state) is stored as the change from the same task's previous one.
 */

/** How one input value of a trace is stored: as is, a turn reference, a list of them, a record delta. */
const AS_IS = 0;
const TURN = 1;
const TURNS = 2;
const DELTA = 3;
type StoredInput = [key: string, kind: number, payload: unknown];

interface RecordDelta {
  remove?: string[];
  put?: Record<string, string>;
  /** The full key order, only when removing and putting does not give it. */
  order?: string[];
}

export interface TurnShape {
  id: string;
  index: number;
  time: string;
  speaker: string;
  text: string;
  images: string[];
}

const TURN_KEYS = ['id', 'index', 'time', 'speaker', 'text', 'images'] as const;

function isTurn(value: unknown): value is TurnShape {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  if (keys.length !== TURN_KEYS.length || keys.some((key, i) => key !== TURN_KEYS[i])) return false;
  const turn = value as TurnShape;
  return (
    typeof turn.id === 'string' &&
    typeof turn.index === 'number' &&
    typeof turn.time === 'string' &&
    typeof turn.speaker === 'string' &&
    typeof turn.text === 'string' &&
    Array.isArray(turn.images) &&
    turn.images.every((image) => typeof image === 'string')
  );
}

const sameTurn = (a: TurnShape, b: TurnShape) =>
  a.id === b.id &&
  a.index === b.index &&
  a.time === b.time &&
  a.speaker === b.speaker &&
  a.text === b.text &&
  a.images.length === b.images.length &&
  a.images.every((image, i) => image === b.images[i]);

function isStringRecord(value: unknown): value is Record<string, string> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  for (const key in value) if (typeof (value as Record<string, unknown>)[key] !== 'string') return false;
  return true;
}

function applyDelta(before: Record<string, string>, delta: RecordDelta): Record<string, string> {
  const out: Record<string, string> = { ...before };
  for (const key of delta.remove ?? []) delete out[key];
  Object.assign(out, delta.put ?? {});
  if (delta.order === undefined) return out;
  const ordered: Record<string, string> = {};
  for (const key of delta.order) ordered[key] = out[key] as string;
  return ordered;
}

function sameRecord(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  const other = Object.keys(b);
  return keys.length === other.length && keys.every((key, i) => key === other[i] && a[key] === b[key]);
}

function recordDelta(before: Record<string, string>, after: Record<string, string>): RecordDelta {
  const delta: RecordDelta = {};
  const remove = Object.keys(before).filter((key) => !Object.hasOwn(after, key));
  const put: Record<string, string> = {};
  let puts = 0;
  for (const key of Object.keys(after)) {
    if (before[key] !== after[key] || !Object.hasOwn(before, key)) {
      put[key] = after[key] as string;
      puts++;
    }
  }
  if (remove.length > 0) delta.remove = remove;
  if (puts > 0) delta.put = put;
  if (!sameRecord(applyDelta(before, delta), after)) delta.order = Object.keys(after);
  return delta;
}

/** The traces with quoted turns as table references and tree states as deltas. */
export function encodeTraces(traces: ReadonlyArray<Record<string, unknown>>): {
  turns: TurnShape[];
  traces: unknown[];
} {
  const table: TurnShape[] = [];
  const byId = new Map<string, number>();
  const previous = new Map<string, Record<string, string>>();
  // A turn's table position, or null when the table holds another turn under its id.
  const ref = (turn: TurnShape): number | null => {
    const at = byId.get(turn.id);
    if (at === undefined) {
      byId.set(turn.id, table.length);
      table.push(turn);
      return table.length - 1;
    }
    return sameTurn(table[at] as TurnShape, turn) ? at : null;
  };
  const stored = traces.map((trace) => {
    const input = trace.input as Record<string, unknown>;
    const entries: StoredInput[] = [];
    for (const [key, value] of Object.entries(input)) {
      if (value === undefined) continue;
      const slot = `${String(trace.task)}\u241f${key}`;
      if (isTurn(value)) {
        const at = ref(value);
        entries.push(at === null ? [key, AS_IS, value] : [key, TURN, at]);
      } else if (Array.isArray(value) && value.length > 0 && value.every(isTurn)) {
        const refs = value.map(ref);
        entries.push(refs.includes(null) ? [key, AS_IS, value] : [key, TURNS, refs]);
      } else if (isStringRecord(value) && previous.has(slot)) {
        entries.push([key, DELTA, recordDelta(previous.get(slot) as Record<string, string>, value)]);
        previous.set(slot, value);
      } else {
        if (isStringRecord(value)) previous.set(slot, value);
        entries.push([key, AS_IS, value]);
      }
    }
    return { ...trace, input: entries };
  });
  return { turns: table, traces: stored };
}

export function decodeTraces(packed: {
  turns: TurnShape[];
  traces: Array<Record<string, unknown>>;
}): unknown[] {
  const previous = new Map<string, Record<string, string>>();
  const turn = (at: unknown) => {
    const found = packed.turns[at as number];
    if (found === undefined) throw new Error(`memory trace refers to unknown turn ${String(at)}`);
    return found;
  };
  return packed.traces.map((trace) => {
    // A trace left undecoded (`wantTrace`) is its id and task only.
    if (trace.input === undefined) return trace;
    const input: Record<string, unknown> = {};
    for (const [key, kind, payload] of trace.input as StoredInput[]) {
      const slot = `${String(trace.task)}\u241f${key}`;
      if (kind === TURN) input[key] = turn(payload);
      else if (kind === TURNS) input[key] = (payload as number[]).map(turn);
      else if (kind === DELTA) {
        const before = previous.get(slot);
        if (before === undefined)
          throw new Error(`memory trace input "${key}" has a delta and no earlier value`);
        const value = applyDelta(before, payload as RecordDelta);
        previous.set(slot, value);
        input[key] = value;
      } else {
        if (isStringRecord(payload)) previous.set(slot, payload);
        input[key] = payload;
      }
    }
    return { ...trace, input };
  });
}

/** Whether a stored trace holds an input stored as the change from an earlier one. */
export function hasDelta(trace: Record<string, unknown>): boolean {
  return (
    Array.isArray(trace.input) && trace.input.some((entry) => Array.isArray(entry) && entry[1] === DELTA)
  );
}
