// The explicit direction marks: embeddings, overrides and their end (U+202A–U+202E), isolates and theirs
// (U+2066–U+2069). In untrusted text they reorder what is shown against what is there ("evil\u202Eexe.txt"
// reads "eviltxt.exe"), and one left open reverses the rest of the text. Each run is shown in a `dir="auto"`
// element, so the text's own letters still set its direction.
const DIRECTION_MARKS = /[\u202A-\u202E\u2066-\u2069]/g

// A notification says a few lines. Beyond this, its text is cut: a browser lays out a long run without a space
// in time that grows with the square of its length (Chromium took seconds for 20,000 letters in a row, minutes
// for a megabyte), so one sender could freeze every reader's page, and a screen reader would read it all.
const MAX_LENGTH = 2000

/**
 * A notification's title and body as shown: the subject and the content; without a subject (or one of spaces),
 * the content is the title; with neither, `untitled` ("Notification"), so that no heading or name is empty.
 */
export function titleAndBody(item: { subject?: string | null | undefined; content: string }, untitled: string) {
  const subject = plain(item.subject ?? '').trim()
  const content = plain(item.content).trim()
  return subject ? { title: subject, body: content } : { title: content || untitled, body: '' }
}

/**
 * Untrusted text as it is shown: without the direction marks that could make it read as something else, and
 * cut after 2,000 characters with "…".
 */
export const plain = (text: string): string => {
  const shown = text.replace(DIRECTION_MARKS, '')
  if (shown.length <= MAX_LENGTH) return shown
  // Not between the two halves of a surrogate pair, which would leave half a character.
  const end = /[\uD800-\uDBFF]/.test(shown[MAX_LENGTH - 1]!) ? MAX_LENGTH - 1 : MAX_LENGTH
  return `${shown.slice(0, end)}…`
}
