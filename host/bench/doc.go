// Package bench measures recmem where it runs and reports the figures: the
// hot paths (record a signal, add a unit, rank 10 candidates and 20, 200 and
// 1,000 of the page's catalog with and without an instruction, select a
// slate, export and import the state) through the plugin in the Go host and
// through the same engine natively, the hosts' calls alternating; where each
// path's time goes inside the module (the phases export); cold start and
// module size; slate completeness on LoCoMo; optionally a second module
// timed beside the first (Options.Before); and, beside them, the bleve and
// Orama peers, the JavaScript host, and the CPU time of one stateless
// request in workerd (Workerd). The figures are held against issue 9's
// budgets, issue 18's and issue 25's.
//
// Run measures and returns a Report, the JSON object of `recmem bench --json`
// (a contract: its keys do not change). WriteText, WriteMarkdown and Chart
// render a Report, also one read back from a saved file.
//
// Cost: Run takes seconds to minutes; each path on each host is timed for at
// most Options.Iters calls or Options.MaxTime, after 5 warm-up calls, at every
// memory size. Rendering is linear in the report.
package bench
