package engine

import (
	"slices"
	"sort"
)

//go:generate go run ../../host/cmd/exportgen -root ../..

// The module's exports, in the order the docs list them. Adding an export is
// one entry here and its handler; `go generate ./pkg/engine` then writes the
// plugin's glue, recmem.js's methods, recmem.d.ts, the page's list of exports
// that never change the state and docs/exports.md.
var (
	Exports = declare[struct{}, ExportsOutput](Export{Name: "exports",
		Doc: "the export names and the state document format this module writes",
		JS:  Binding{Method: "exports", Pick: "exports"}}, exportsExport)

	Record = declare[RecordInput, RecordOutput](Export{Name: "record", Mutates: true,
		Doc:    "append signals to the event memory, then maintain with the chosen scheduler",
		Limits: []Limit{{"signals", MaxSignals, "signals"}},
		JS:     Binding{Method: "record", Args: []string{"signals"}, Options: []Option{{"maintain", "maintain", ""}}}}, recordExport)
	Maintain = declare[MaintainInput, MaintainOutput](Export{Name: "maintain", Mutates: true,
		Doc: "ask the scheduler whether to maintain now, and apply its decision",
		JS: Binding{Method: "maintain", Options: []Option{{"now", "now", ""}, {"scheduler", "scheduler", "'fixed'"},
			{"force", "force", "false"}}}}, maintainExport)
	Plan = declare[MaintainInput, PlanOutput](Export{Name: "plan",
		Doc: "what maintain would do now, applying nothing",
		JS: Binding{Method: "plan", Options: []Option{{"now", "now", ""}, {"scheduler", "scheduler", "'planner'"},
			{"force", "force", "false"}}}}, planExport)
	ApplyOps = declare[ApplyOpsInput, ApplyOpsOutput](Export{Name: "apply_ops", Mutates: true,
		Doc:    "apply lifecycle ops (a user's edits, a planner's choices) atomically",
		Limits: []Limit{{"ops", MaxOps, "ops"}},
		JS:     Binding{Method: "applyOps", Args: []string{"ops"}, Options: []Option{{"trigger", "trigger", "'user'"}, {"now", "now", ""}}}}, applyOpsExport)
	GetMemory = declare[GetMemoryInput, MemoryView](Export{Name: "get_memory",
		Doc: "the three memory tiers, the newest journal entries and the parameters",
		JS:  Binding{Method: "memory", Options: []Option{{"journalLimit", "journal_limit", "0"}}}}, getMemoryExport)

	LoadCatalog = declare[Raw, LoadCatalogOutput](Export{Name: "load_catalog",
		Doc: "load the catalog asset rank uses (binary or JSON); an asset, not user state",
		JS:  Binding{Method: "loadCatalog", Args: []string{"catalog"}, Raw: true}}, loadCatalogExport)
	Rank = declare[RankInput, RankOutput](Export{Name: "rank",
		Doc:    "order candidate items for the user's memory and instruction, each score explained",
		Limits: []Limit{{"candidates", maxCandidates, "candidates"}, {"instruction", maxInstructionLen, "bytes"}},
		JS:     Binding{Method: "rank", Args: []string{"candidates"}, Options: []Option{{"instruction", "instruction", ""}, {"k", "k", ""}}}}, rankExport)

	AddUnits = declare[AddUnitsInput, AddUnitsOutput](Export{Name: "add_units", Mutates: true,
		Doc:    "store agent-memory units (dialogue turns or records)",
		Limits: []Limit{{"units", MaxUnits, "units in the store"}},
		JS:     Binding{Method: "addUnits", Args: []string{"units"}}}, addUnitsExport)
	DeleteUnits = declare[DeleteUnitsInput, DeleteUnitsOutput](Export{Name: "delete_units", Mutates: true,
		Doc: "remove units by id, from the store and its indexes",
		JS:  Binding{Method: "deleteUnits", Args: []string{"ids"}}}, deleteUnitsExport)
	Purge = declare[PurgeInput, PurgeOutput](Export{Name: "purge", Mutates: true,
		Doc: "remove a whole session, or every unit of a user",
		JS:  Binding{Method: "purge", Options: []Option{{"session", "session", ""}, {"user", "user", ""}}}}, purgeExport)
	SelectSlate = declare[SelectSlateInput, SelectSlateOutput](Export{Name: "select_slate",
		Doc:    "choose the units that enter a context of at most budget tokens, with no LLM call",
		Limits: []Limit{{"budget", MaxBudget, "tokens"}},
		JS:     Binding{Method: "selectSlate", Args: []string{"request"}, Whole: true}}, selectSlateExport)

	ExportState = declare[ExportStateInput, *Document](Export{Name: "export_state",
		Doc: "the whole state: the JSON document sealed with its checksum, or the binary state or a delta of it",
		JS:  Binding{Method: "exportState", Text: true, Hand: true}}, exportStateExport)
	ImportState = declare[Raw, ImportStateOutput](Export{Name: "import_state", Mutates: true,
		Doc: "replace the state with a JSON document or a binary state (a base and its segments), validated first",
		JS:  Binding{Method: "importState", Args: []string{"state"}, Raw: true, Hand: true}}, importStateExport)
	Reset = declare[ResetInput, ResetOutput](Export{Name: "reset", Mutates: true,
		Doc: "start an empty memory, with default or given parameters",
		JS:  Binding{Method: "reset", Args: []string{"config"}}}, resetExport)

	Phases = declare[struct{}, PhasesOutput](Export{Name: "phases",
		Doc: "where the last call's time went, phase by phase (empty unless the host gave the module a clock: config phases = on)",
		JS:  Binding{Method: "phases"}}, phasesExport)
)

// All lists every export, in the order of the docs.
var All = []*Export{
	Exports.Export,
	Record.Export, Maintain.Export, Plan.Export, ApplyOps.Export, GetMemory.Export,
	LoadCatalog.Export, Rank.Export,
	AddUnits.Export, DeleteUnits.Export, Purge.Export, SelectSlate.Export,
	ExportState.Export, ImportState.Export, Reset.Export,
	Phases.Export,
}

// byName and names index All (byName for Call, names sorted for the
// exports export). They are filled from All once, at package
// initialization: the exports export reads names, so a variable initializer
// reaching All from it would be an initialization cycle.
var (
	byName map[string]*Export
	names  []string
)

func init() {
	byName = make(map[string]*Export, len(All))
	for _, x := range All {
		if _, dup := byName[x.Name]; dup {
			panic("engine: two exports named " + x.Name)
		}
		byName[x.Name] = x
		names = append(names, x.Name)
	}
	sort.Strings(names)
}

// Names lists the export names in sorted order.
func Names() []string { return slices.Clone(names) }

// Lookup returns the export named name.
func Lookup(name string) (*Export, bool) {
	x, ok := byName[name]
	return x, ok
}
