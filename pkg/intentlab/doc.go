// Package intentlab is the offline side of the instruction interpreter
// (pkg/intent) and of rank's use of it: does a ranked list obey what the user
// typed, on whatever catalog?
//
//   - Cases (ReadCases, ReadCaseFile, ReadCasePath): instructions written by
//     hand, each with a gold predicate over item metadata (Gold: titles,
//     list-valued fields as sets, numeric ranges, and what a catalog cannot
//     judge) that judges the interpreter without sharing its normalization;
//     dev.jsonl and heldout.jsonl name their split.
//   - Catalogs (ReadCatalogFile): the page's demo catalog with its ranker
//     spec and table, or a catalog asset (binary or JSON) loaded as it is,
//     whose candidates are drawn per case (SampleCandidates).
//   - Evaluate: each case ranked for a new user and for a user whose history
//     pulls against the instruction, with and without the instruction; the
//     share of the top 10 that meets it (Share, and Strict, which counts an
//     empty slot a meeting candidate could have filled) by kind, by user and
//     by split (Tally).
//   - TargetAware: Games-6k's 1 + 9 protocol (pkg/rec), HR@1 with and
//     without an instruction naming one facet of the held-out target.
//
// Both run the exports through an engine.Caller (a native *engine.Engine or
// the .wasm), with the typed calls of pkg/engine. The module never links this
// package; `recmem eval instructions` reads the files, calls it and prints
// its Report.
package intentlab
