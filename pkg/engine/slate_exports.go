package engine

import (
	"errors"
	"fmt"

	"github.com/recmem/recmem/pkg/ident"
	"github.com/recmem/recmem/pkg/slate"
)

// Slate-selection exports (pkg/slate, docs/slate.md):
//
//	add_units     {"units":[unit...]}                      -> {"added":n,"units":total,"sessions":s}
//	delete_units  {"ids":["id"...]}                         -> {"deleted":n,"units":total,"sessions":s}
//	purge         {"session":"S"} | {"user":"U"} | both     -> {"purged":n,"units":total,"sessions":s}
//	select_slate  {"query","date","budget","pool","ranker","model","with_pool"}
//	              -> {"ranker","budget","tokens","pool","units":[chosen...]}
//
// A unit is {"id","session","date","time","speaker","text","user","kind"}.

// Limits of the agent memory: units one state may hold (LongMemEval-M
// histories are about 25,000 turns) and the largest token budget a slate may
// ask for.
const (
	MaxUnits  = 100_000
	MaxBudget = 1_000_000
)

type slateCounts struct {
	Units    int `json:"units"`
	Sessions int `json:"sessions"`
}

func (e *Engine) units() *slate.Store {
	if e.doc.Units == nil {
		return slate.NewStore()
	}
	return e.doc.Units
}

func counts(s *slate.Store) slateCounts { return slateCounts{Units: s.Len(), Sessions: s.Sessions()} }

func init() {
	register("add_units", func(e *Engine, input []byte) (any, error) {
		var in struct {
			Units []slate.Unit `json:"units"`
		}
		if units, ok := decodeUnitsFast(input); ok {
			in.Units = units
		} else if err := decodeStrict(input, &in); err != nil {
			return nil, err
		}
		if len(in.Units) == 0 {
			return nil, errors.New("input.units: missing or empty")
		}
		s := e.units()
		if n := s.Len() + len(in.Units); n > MaxUnits {
			return nil, fmt.Errorf("input.units: the store would hold %d units, more than the limit of %d", n, MaxUnits)
		}
		if err := s.Add(in.Units); err != nil {
			return nil, fmt.Errorf("input.%w", err)
		}
		e.doc.Units = s
		return struct {
			Added int `json:"added"`
			slateCounts
		}{len(in.Units), counts(s)}, nil
	})
	register("delete_units", func(e *Engine, input []byte) (any, error) {
		var in struct {
			IDs []string `json:"ids"`
		}
		if err := decodeStrict(input, &in); err != nil {
			return nil, err
		}
		if len(in.IDs) == 0 {
			return nil, errors.New("input.ids: missing or empty")
		}
		s := e.units()
		if err := s.Delete(in.IDs); err != nil {
			return nil, fmt.Errorf("input.%w", err)
		}
		return struct {
			Deleted int `json:"deleted"`
			slateCounts
		}{len(in.IDs), counts(s)}, nil
	})
	register("purge", func(e *Engine, input []byte) (any, error) {
		var in struct {
			Session string `json:"session"`
			User    string `json:"user"`
		}
		if err := decodeStrict(input, &in); err != nil {
			return nil, err
		}
		if in.Session == "" && in.User == "" {
			return nil, errors.New("input: give session, user or both")
		}
		for _, f := range [...]struct{ name, v string }{{"session", in.Session}, {"user", in.User}} {
			if f.v == "" {
				continue
			}
			if err := ident.Check(f.v, slate.MaxIDBytes); err != nil {
				return nil, fmt.Errorf("input.%s: %w", f.name, err)
			}
		}
		s := e.units()
		n := s.Purge(in.Session, in.User)
		return struct {
			Purged int `json:"purged"`
			slateCounts
		}{n, counts(s)}, nil
	})
	register("select_slate", func(e *Engine, input []byte) (any, error) {
		var req slate.Request
		if err := decodeStrict(input, &req); err != nil {
			return nil, err
		}
		if err := req.Validate(); err != nil {
			return nil, fmt.Errorf("input.%w", err)
		}
		if req.Budget > MaxBudget {
			return nil, fmt.Errorf("input.budget: %d tokens, more than the limit of %d", req.Budget, MaxBudget)
		}
		res, err := e.units().Select(req)
		if err != nil {
			return nil, err
		}
		// About 2 KB per explained unit (LoCoMo at B=2000: 98 KB for 47).
		b, err := res.AppendJSON(make([]byte, 0, 512+2304*len(res.Units)))
		return rawJSON(b), err
	})
}
