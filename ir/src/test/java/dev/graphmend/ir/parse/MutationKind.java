package dev.graphmend.ir.parse;

/** The ways the mutation test damages a file. */
enum MutationKind {
    /** Cut the file at a random byte. */
    TRUNCATE,
    /** Delete 1 to 3 consecutive lines. */
    DELETE_LINES,
    /** Set 1 to 3 bytes (near each other) to random other values 0 to 255. */
    FLIP_BYTES,
    /** Delete one closing bracket of code: ), ] or }. */
    DELETE_CLOSER,
    /** Insert a keyword, soft keyword, operator, bracket, name or number. */
    INSERT_TOKEN
}
