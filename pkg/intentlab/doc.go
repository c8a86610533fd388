// Package intentlab is the offline side of the instruction interpreter
// (pkg/intent) and of rank's use of it: does a ranked list obey what the user
// typed?
//
//   - Cases (ReadCases, ReadCaseDir): instructions written by hand, each with
//     a gold predicate over item metadata (Gold) that judges the interpreter
//     without sharing its normalization.
//   - Evaluate: each case ranked on the page's catalog and candidates, for a
//     new user and for a user whose history pulls against the instruction,
//     with and without the instruction; the share of the top 10 that meets
//     it (Share, Tally) by kind, by user and by split.
//   - TargetAware: Games-6k's 1 + 9 protocol (pkg/rec), HR@1 with and
//     without an instruction naming one facet of the held-out target.
//
// Both run the exports through an engine.Caller (a native *engine.Engine or
// the .wasm), with the typed calls of pkg/engine. The module never links this
// package; `recmem eval instructions` reads the files, calls it and prints
// its Report.
package intentlab
