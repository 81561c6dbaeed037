// The explicit direction marks: embeddings, overrides and their end (U+202A–U+202E), isolates and theirs
// (U+2066–U+2069). In untrusted text they reorder what is shown against what is there ("evil\u202Eexe.txt"
// reads "eviltxt.exe"), and one left open reverses the rest of the text. Each run is shown in a `dir="auto"`
// element, so the text's own letters still set its direction.
const DIRECTION_MARKS = /[\u202A-\u202E\u2066-\u2069]/g

/** Untrusted text as it is shown: without the direction marks that could make it read as something else. */
export const plain = (text: string): string => text.replace(DIRECTION_MARKS, '')
