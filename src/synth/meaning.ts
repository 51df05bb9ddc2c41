/** The meaning reader lives in src/synth/meaning/; this path stays for its importers. */
export * from './meaning/index.js';
