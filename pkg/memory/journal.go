package memory

import (
	"fmt"
	"strings"
)

// Entry is one journal record: an applied operation and why. The journal keeps
// the newest Config.JournalCap entries, oldest first.
//
// Op is one of JournalOps. An "extract" entry with a chunk created it; one
// without chunks closes an extraction and lists the events it processed.
// Before and After are the strength of the (first) chunk around the change,
// where there is one.
type Entry struct {
	Seq     int      `json:"seq"`
	Time    int64    `json:"time"`
	Op      string   `json:"op"`
	Trigger string   `json:"trigger"`
	Chunks  []string `json:"chunks,omitempty"`
	Events  []string `json:"events,omitempty"`
	Before  *float64 `json:"before,omitempty"`
	After   *float64 `json:"after,omitempty"`
	Reason  string   `json:"reason"`
}

// JournalOps are the operations a journal entry may record: the lifecycle
// operations, a user's edit, delete, avoid and add, and the capacity outcomes
// "evict" (a weaker chunk replaced) and "drop" (a new chunk refused).
var JournalOps = []string{"extract", "boost", "demote", "merge", "forget", "synthesize", "edit", "delete", "evict", "drop", "avoid", "add"}

// Triggers say who caused an entry: a user's edit, an LLM policy, the fixed
// scheduler, the planner, the automatic synthesis every Config.Gamma
// mutations, a category at capacity, or the event FIFO about to drop a
// pending event.
var Triggers = []string{"user", "llm", "scheduler", "planner", "auto", "capacity", "fifo"}

// mutates reports whether an entry of op counts toward Config.Gamma: every
// operation that changes a chunk does; synthesize, drop and an extraction's
// closing entry do not.
func mutates(e Entry) bool {
	switch e.Op {
	case "synthesize", "drop":
		return false
	case "extract":
		return len(e.Chunks) > 0
	}
	return true
}

func ptr(x float64) *float64 { return &x }

// describeEvents lists events as "purchase e3, rate 2 e7" for reasons.
func describeEvents(s *State, ids []string) string {
	parts := make([]string, 0, len(ids))
	for _, id := range ids {
		i := s.eventIndex(id)
		if i < 0 {
			parts = append(parts, id)
			continue
		}
		e := s.Events[i]
		a := e.Action
		if e.Action == "rate" {
			a = fmt.Sprintf("rate %d", e.Rating)
		}
		parts = append(parts, a+" "+id)
	}
	return strings.Join(parts, ", ")
}

// fmtStrength formats a strength for a reason: 0.7, 1, 0.35.
func fmtStrength(x float64) string { return fmt.Sprint(x) }
