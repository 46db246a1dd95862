// Pieces of text in several scripts, for the property tests of the word and letter counts (the reference's
// metadata.word_count and the article rules): Latin with accents, Greek, Arabic-Indic digits, CJK, astral letters
// (surrogate pairs), an emoji, and punctuation that is neither letter nor space.
export const SCRIPT_PIECES = ["déjà", "Ωμέγα", "٣٤", "日本語", "𝒜𝒷", "😀", "—", "…"];
