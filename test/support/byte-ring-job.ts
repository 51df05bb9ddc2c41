import { RingWriter } from '../../src/util/byte-ring.js';

/** A thread-pool handler for src/util/byte-ring.test.ts: writes texts as one region of its worker's ring. */
let writer: RingWriter | null = null;

export function ringJob(message: { texts: string[]; lines: boolean }, data: { ring: SharedArrayBuffer }) {
  writer ??= new RingWriter(data.ring);
  writer.begin();
  for (const text of message.texts) {
    if (message.lines) writer.writeLine(text);
    else writer.write(text);
  }
  return writer.end();
}
